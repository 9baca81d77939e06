// Package pgconn is a stub of github.com/jackc/pgx/v5/pgconn v5.12.0: the
// command tag Exec returns and the descriptions the pgx interfaces mention.
package pgconn

// CommandTag is the status a statement returns, such as "UPDATE 1".
type CommandTag struct {
	s string
}

// NewCommandTag makes a CommandTag from s, as test fakes need to.
func NewCommandTag(s string) CommandTag { return CommandTag{s: s} }

// RowsAffected returns the row count in the tag.
func (ct CommandTag) RowsAffected() int64 { panic("stub") }

// String returns the tag text.
func (ct CommandTag) String() string { return ct.s }

// Insert reports whether the tag is an INSERT's.
func (ct CommandTag) Insert() bool { panic("stub") }

// Update reports whether the tag is an UPDATE's.
func (ct CommandTag) Update() bool { panic("stub") }

// Delete reports whether the tag is a DELETE's.
func (ct CommandTag) Delete() bool { panic("stub") }

// Select reports whether the tag is a SELECT's.
func (ct CommandTag) Select() bool { panic("stub") }

// FieldDescription describes a result column.
type FieldDescription struct {
	Name        string
	DataTypeOID uint32
}

// StatementDescription describes a prepared statement.
type StatementDescription struct {
	Name      string
	SQL       string
	ParamOIDs []uint32
	Fields    []FieldDescription
}

// PgError is an error the PostgreSQL server reported; Code is its SQLSTATE.
type PgError struct {
	Severity string
	Code     string
	Message  string
}

// Error returns the server's message.
func (pe *PgError) Error() string { return pe.Severity + ": " + pe.Message }

// Package clause is a stub of gorm.io/gorm/clause v1.31.2 for the analyzer
// tests. It declares only what idemlint's models and test packages use, with
// the real signatures; apicheck keeps it in step with the real API.
package clause

// Writer writes SQL.
type Writer interface {
	WriteByte(byte) error
	WriteString(string) (int, error)
}

// Builder builds SQL.
type Builder interface {
	Writer
	WriteQuoted(field interface{})
	AddVar(Writer, ...interface{})
	AddError(error) error
}

// Expression is a clause of a statement.
type Expression interface {
	Build(builder Builder)
}

// Column names a column.
type Column struct {
	Table string
	Name  string
}

// OnConflict is an INSERT's conflict clause: an upsert.
type OnConflict struct {
	Columns   []Column
	DoNothing bool
	UpdateAll bool
}

// Build writes the clause.
func (onConflict OnConflict) Build(builder Builder) { panic("stub") }

// Expr is a raw SQL expression with its variables.
type Expr struct {
	SQL                string
	Vars               []interface{}
	WithoutParentheses bool
}

// Build builds the expression.
func (expr Expr) Build(builder Builder) { panic("stub") }

// LockingStrengthUpdate is the strength of SELECT ... FOR UPDATE.
const LockingStrengthUpdate = "UPDATE"

// Locking is a locking clause: FOR UPDATE, FOR SHARE.
type Locking struct {
	Strength string
	Options  string
}

// Name is the clause's name.
func (locking Locking) Name() string { panic("stub") }

// Build writes the clause.
func (locking Locking) Build(builder Builder) { panic("stub") }

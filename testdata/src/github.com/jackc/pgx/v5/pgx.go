// Package pgx is a stub of github.com/jackc/pgx/v5 v5.12.0 for the analyzer
// tests: connections, transactions, batches and COPY, the ways pgx writes.
package pgx

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// ErrNoRows is returned by Row.Scan when the query returned no row.
var ErrNoRows = errors.New("no rows in result set")

// Identifier is a possibly schema-qualified SQL identifier.
type Identifier []string

// NamedArgs binds @name placeholders.
type NamedArgs map[string]any

// Rows is the result of Query.
type Rows interface {
	Close()
	Err() error
	CommandTag() pgconn.CommandTag
	FieldDescriptions() []pgconn.FieldDescription
	Next() bool
	Scan(dest ...any) error
	Values() ([]any, error)
	RawValues() [][]byte
	Conn() *Conn
	TypeMap() *pgtype.Map
}

// Row is the result of QueryRow.
type Row interface {
	Scan(dest ...any) error
}

// CopyFromSource feeds rows to CopyFrom.
type CopyFromSource interface {
	Next() bool
	Values() ([]any, error)
	Err() error
}

// CopyFromRows makes a CopyFromSource of rows.
func CopyFromRows(rows [][]any) CopyFromSource { panic("stub") }

// QueuedQuery is a query queued in a Batch.
type QueuedQuery struct {
	SQL       string
	Arguments []any
}

// Exec sets a callback for the query's command tag.
func (qq *QueuedQuery) Exec(fn func(ct pgconn.CommandTag) error) {}

// Batch queues queries to send in one round trip.
type Batch struct {
	QueuedQueries []*QueuedQuery
}

// Queue queues a query.
func (b *Batch) Queue(query string, arguments ...any) *QueuedQuery { panic("stub") }

// Len returns the number of queued queries.
func (b *Batch) Len() int { return len(b.QueuedQueries) }

// BatchResults reads the results of a sent Batch.
type BatchResults interface {
	Exec() (pgconn.CommandTag, error)
	Query() (Rows, error)
	QueryRow() Row
	Close() error
	Tx() Tx
}

// TxIsoLevel is a transaction isolation level.
type TxIsoLevel string

// TxAccessMode is a transaction access mode.
type TxAccessMode string

// TxDeferrableMode is a transaction deferrable mode.
type TxDeferrableMode string

// TxOptions configures BeginTx.
type TxOptions struct {
	IsoLevel       TxIsoLevel
	AccessMode     TxAccessMode
	DeferrableMode TxDeferrableMode
}

// LargeObjects accesses the large object API; Tx mentions it.
type LargeObjects struct{}

// Tx is a transaction. *pgxpool.Tx implements it too, so the linter must
// match both; this stub keeps every method so "implements" checks hold.
type Tx interface {
	Begin(ctx context.Context) (Tx, error)
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error

	CopyFrom(ctx context.Context, tableName Identifier, columnNames []string, rowSrc CopyFromSource) (int64, error)
	SendBatch(ctx context.Context, b *Batch) BatchResults
	LargeObjects() LargeObjects

	Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error)

	Exec(ctx context.Context, sql string, arguments ...any) (commandTag pgconn.CommandTag, err error)
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) Row

	Conn() *Conn
}

// Conn is a single connection.
type Conn struct{}

// Connect opens a connection.
func Connect(ctx context.Context, connString string) (*Conn, error) { panic("stub") }

// Close closes the connection.
func (c *Conn) Close(ctx context.Context) error { return nil }

// Exec runs sql.
func (c *Conn) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	panic("stub")
}

// Query runs sql and returns its rows.
func (c *Conn) Query(ctx context.Context, sql string, args ...any) (Rows, error) { panic("stub") }

// QueryRow runs sql and returns its first row.
func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) Row { panic("stub") }

// SendBatch sends a batch.
func (c *Conn) SendBatch(ctx context.Context, b *Batch) BatchResults { panic("stub") }

// CopyFrom bulk-inserts rows with COPY.
func (c *Conn) CopyFrom(ctx context.Context, tableName Identifier, columnNames []string, rowSrc CopyFromSource) (int64, error) {
	panic("stub")
}

// Begin starts a transaction.
func (c *Conn) Begin(ctx context.Context) (Tx, error) { panic("stub") }

// BeginTx starts a transaction with options.
func (c *Conn) BeginTx(ctx context.Context, txOptions TxOptions) (Tx, error) { panic("stub") }

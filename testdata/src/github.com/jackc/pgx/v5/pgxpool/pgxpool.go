// Package pgxpool is a stub of github.com/jackc/pgx/v5/pgxpool v5.12.0: the
// pool, its acquired connections and its transaction type.
package pgxpool

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Pool is a connection pool.
type Pool struct{}

// New returns a pool for connString.
func New(ctx context.Context, connString string) (*Pool, error) { panic("stub") }

// Close closes the pool.
func (p *Pool) Close() {}

// Acquire takes a connection from the pool.
func (p *Pool) Acquire(ctx context.Context) (c *Conn, err error) { panic("stub") }

// Exec runs sql on a pooled connection.
func (p *Pool) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	panic("stub")
}

// Query runs sql and returns its rows.
func (p *Pool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { panic("stub") }

// QueryRow runs sql and returns its first row.
func (p *Pool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row { panic("stub") }

// SendBatch sends a batch.
func (p *Pool) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults { panic("stub") }

// Begin starts a transaction; its dynamic type is *Tx.
func (p *Pool) Begin(ctx context.Context) (pgx.Tx, error) { panic("stub") }

// BeginTx starts a transaction with options.
func (p *Pool) BeginTx(ctx context.Context, txOptions pgx.TxOptions) (pgx.Tx, error) { panic("stub") }

// CopyFrom bulk-inserts rows with COPY.
func (p *Pool) CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (int64, error) {
	panic("stub")
}

// Conn is a connection acquired from a Pool.
type Conn struct{}

// Release returns the connection to the pool.
func (c *Conn) Release() {}

// Exec runs sql.
func (c *Conn) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	panic("stub")
}

// Query runs sql and returns its rows.
func (c *Conn) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { panic("stub") }

// QueryRow runs sql and returns its first row.
func (c *Conn) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row { panic("stub") }

// SendBatch sends a batch.
func (c *Conn) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults { panic("stub") }

// CopyFrom bulk-inserts rows with COPY.
func (c *Conn) CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (int64, error) {
	panic("stub")
}

// Begin starts a transaction.
func (c *Conn) Begin(ctx context.Context) (pgx.Tx, error) { panic("stub") }

// BeginTx starts a transaction with options.
func (c *Conn) BeginTx(ctx context.Context, txOptions pgx.TxOptions) (pgx.Tx, error) { panic("stub") }

// Tx is a transaction from a Pool. It is a struct implementing pgx.Tx, so
// its methods have their own full names, such as (*pgxpool.Tx).Exec.
type Tx struct{}

// The stub must keep *Tx a pgx.Tx, as the real one is.
var _ pgx.Tx = (*Tx)(nil)

// Begin starts a nested transaction.
func (tx *Tx) Begin(ctx context.Context) (pgx.Tx, error) { panic("stub") }

// Commit commits and releases the connection.
func (tx *Tx) Commit(ctx context.Context) error { panic("stub") }

// Rollback rolls back and releases the connection.
func (tx *Tx) Rollback(ctx context.Context) error { panic("stub") }

// CopyFrom bulk-inserts rows with COPY.
func (tx *Tx) CopyFrom(ctx context.Context, tableName pgx.Identifier, columnNames []string, rowSrc pgx.CopyFromSource) (int64, error) {
	panic("stub")
}

// SendBatch sends a batch.
func (tx *Tx) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults { panic("stub") }

// LargeObjects returns the large object API.
func (tx *Tx) LargeObjects() pgx.LargeObjects { panic("stub") }

// Prepare prepares a statement.
func (tx *Tx) Prepare(ctx context.Context, name, sql string) (*pgconn.StatementDescription, error) {
	panic("stub")
}

// Exec runs sql.
func (tx *Tx) Exec(ctx context.Context, sql string, arguments ...any) (pgconn.CommandTag, error) {
	panic("stub")
}

// Query runs sql and returns its rows.
func (tx *Tx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) { panic("stub") }

// QueryRow runs sql and returns its first row.
func (tx *Tx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row { panic("stub") }

// Conn returns the transaction's connection.
func (tx *Tx) Conn() *pgx.Conn { panic("stub") }

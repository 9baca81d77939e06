// Package bun is a stub of github.com/uptrace/bun v1.3.0 for the analyzer
// tests. It declares only what idemlint's models and test packages use, with
// the real signatures; apicheck keeps it in step with the real API.
package bun

import (
	"context"
	"database/sql"

	"github.com/uptrace/bun/schema"
)

// DB is bun's database handle.
type DB struct{}

// NewInsert starts an INSERT.
func (db *DB) NewInsert() *InsertQuery { panic("stub") }

// NewUpdate returns an UPDATE builder.
func (db *DB) NewUpdate() *UpdateQuery { panic("stub") }

// Exec runs a statement.
func (db *DB) Exec(query string, args ...any) (sql.Result, error) { panic("stub") }

// ExecContext runs a statement.
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	panic("stub")
}

// QueryContext runs a query.
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	panic("stub")
}

// QueryRowContext runs a query for one row.
func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	panic("stub")
}

// RunInTx runs fn in a transaction.
func (db *DB) RunInTx(ctx context.Context, opts *sql.TxOptions, fn func(ctx context.Context, tx Tx) error) error {
	panic("stub")
}

// Tx is a transaction.
type Tx struct{}

// NewInsert starts an INSERT in the transaction.
func (tx Tx) NewInsert() *InsertQuery { panic("stub") }

// NewUpdate returns an UPDATE builder on the transaction.
func (tx Tx) NewUpdate() *UpdateQuery { panic("stub") }

// Exec runs a statement.
func (tx Tx) Exec(query string, args ...any) (sql.Result, error) { panic("stub") }

// ExecContext runs a statement.
func (tx Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	panic("stub")
}

// QueryContext runs a query.
func (tx Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	panic("stub")
}

// QueryRowContext runs a query for one row.
func (tx Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	panic("stub")
}

// Conn is a single connection.
type Conn struct{}

// ExecContext runs a statement.
func (c Conn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	panic("stub")
}

// InsertQuery builds an INSERT.
type InsertQuery struct{}

// Model sets the model (and so the table and values) to insert.
func (q *InsertQuery) Model(model any) *InsertQuery { panic("stub") }

// On adds an ON clause: "CONFLICT (id) DO NOTHING", "DUPLICATE KEY UPDATE".
func (q *InsertQuery) On(s string, args ...any) *InsertQuery { panic("stub") }

// Ignore makes the INSERT skip conflicting rows.
func (q *InsertQuery) Ignore() *InsertQuery { panic("stub") }

// Replace makes the INSERT a REPLACE (MySQL).
func (q *InsertQuery) Replace() *InsertQuery { panic("stub") }

// Returning adds a RETURNING clause.
func (q *InsertQuery) Returning(query string, args ...any) *InsertQuery { panic("stub") }

// Exec runs the INSERT.
func (q *InsertQuery) Exec(ctx context.Context, dest ...any) (sql.Result, error) { panic("stub") }

// Scan runs the INSERT and scans what it returns.
func (q *InsertQuery) Scan(ctx context.Context, dest ...any) error { panic("stub") }

// BaseModel, embedded in a model, carries its table: tag (bun:"table:orders,alias:o").
type BaseModel = schema.BaseModel

// UpdateQuery builds an UPDATE.
type UpdateQuery struct{}

// Model sets the model the update writes.
func (q *UpdateQuery) Model(model any) *UpdateQuery { panic("stub") }

// Set adds a SET assignment.
func (q *UpdateQuery) Set(query string, args ...any) *UpdateQuery { panic("stub") }

// WherePK adds the model's primary key to the WHERE clause.
func (q *UpdateQuery) WherePK(cols ...string) *UpdateQuery { panic("stub") }

// Where adds a condition.
func (q *UpdateQuery) Where(query string, args ...any) *UpdateQuery { panic("stub") }

// Exec runs the update.
func (q *UpdateQuery) Exec(ctx context.Context, dest ...any) (sql.Result, error) { panic("stub") }

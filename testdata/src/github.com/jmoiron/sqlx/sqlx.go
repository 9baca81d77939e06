// Package sqlx is a stub of github.com/jmoiron/sqlx v1.4.0 for the analyzer
// tests. It declares only what idemlint's models and test packages use, with
// the real signatures; apicheck keeps it in step with the real API.
package sqlx

import (
	"context"
	"database/sql"
)

// DB wraps *sql.DB; its Exec and Query methods are database/sql's own.
type DB struct {
	*sql.DB
}

// Open opens a database.
func Open(driverName, dataSourceName string) (*DB, error) { panic("stub") }

// DriverName returns the name of the driver.
func (db *DB) DriverName() string { panic("stub") }

// Rebind rewrites the bindvars of a query for the driver.
func (db *DB) Rebind(query string) string { panic("stub") }

// BindNamed binds a named query.
func (db *DB) BindNamed(query string, arg interface{}) (string, []interface{}, error) {
	panic("stub")
}

// NamedExec runs a named statement.
func (db *DB) NamedExec(query string, arg interface{}) (sql.Result, error) { panic("stub") }

// NamedExecContext runs a named statement.
func (db *DB) NamedExecContext(ctx context.Context, query string, arg interface{}) (sql.Result, error) {
	panic("stub")
}

// MustExec runs a statement and panics on error.
func (db *DB) MustExec(query string, args ...interface{}) sql.Result { panic("stub") }

// MustExecContext runs a statement and panics on error.
func (db *DB) MustExecContext(ctx context.Context, query string, args ...interface{}) sql.Result {
	panic("stub")
}

// NamedQuery runs a named query.
func (db *DB) NamedQuery(query string, arg interface{}) (*Rows, error) { panic("stub") }

// NamedQueryContext runs a named query.
func (db *DB) NamedQueryContext(ctx context.Context, query string, arg interface{}) (*Rows, error) {
	panic("stub")
}

// Get scans one row into dest.
func (db *DB) Get(dest interface{}, query string, args ...interface{}) error { panic("stub") }

// GetContext scans one row into dest.
func (db *DB) GetContext(ctx context.Context, dest interface{}, query string, args ...interface{}) error {
	panic("stub")
}

// Queryx runs a query.
func (db *DB) Queryx(query string, args ...interface{}) (*Rows, error) { panic("stub") }

// QueryRowx runs a query for one row.
func (db *DB) QueryRowx(query string, args ...interface{}) *Row { panic("stub") }

// QueryxContext runs a query.
func (db *DB) QueryxContext(ctx context.Context, query string, args ...interface{}) (*Rows, error) {
	panic("stub")
}

// QueryRowxContext runs a query for one row.
func (db *DB) QueryRowxContext(ctx context.Context, query string, args ...interface{}) *Row {
	panic("stub")
}

// Beginx begins a transaction.
func (db *DB) Beginx() (*Tx, error) { panic("stub") }

// BeginTxx begins a transaction.
func (db *DB) BeginTxx(ctx context.Context, opts *sql.TxOptions) (*Tx, error) { panic("stub") }

// PrepareNamed prepares a named statement.
func (db *DB) PrepareNamed(query string) (*NamedStmt, error) { panic("stub") }

// Preparex prepares a statement.
func (db *DB) Preparex(query string) (*Stmt, error) { panic("stub") }

// Tx wraps *sql.Tx.
type Tx struct {
	*sql.Tx
}

// NamedExec runs a named statement.
func (tx *Tx) NamedExec(query string, arg interface{}) (sql.Result, error) { panic("stub") }

// NamedExecContext runs a named statement.
func (tx *Tx) NamedExecContext(ctx context.Context, query string, arg interface{}) (sql.Result, error) {
	panic("stub")
}

// MustExec runs a statement and panics on error.
func (tx *Tx) MustExec(query string, args ...interface{}) sql.Result { panic("stub") }

// MustExecContext runs a statement and panics on error.
func (tx *Tx) MustExecContext(ctx context.Context, query string, args ...interface{}) sql.Result {
	panic("stub")
}

// NamedQuery runs a named query.
func (tx *Tx) NamedQuery(query string, arg interface{}) (*Rows, error) { panic("stub") }

// Get scans one row into dest.
func (tx *Tx) Get(dest interface{}, query string, args ...interface{}) error { panic("stub") }

// GetContext scans one row into dest.
func (tx *Tx) GetContext(ctx context.Context, dest interface{}, query string, args ...interface{}) error {
	panic("stub")
}

// Queryx runs a query.
func (tx *Tx) Queryx(query string, args ...interface{}) (*Rows, error) { panic("stub") }

// QueryRowx runs a query for one row.
func (tx *Tx) QueryRowx(query string, args ...interface{}) *Row { panic("stub") }

// QueryxContext runs a query.
func (tx *Tx) QueryxContext(ctx context.Context, query string, args ...interface{}) (*Rows, error) {
	panic("stub")
}

// QueryRowxContext runs a query for one row.
func (tx *Tx) QueryRowxContext(ctx context.Context, query string, args ...interface{}) *Row {
	panic("stub")
}

// Rows wraps *sql.Rows.
type Rows struct {
	*sql.Rows
}

// Row is one row of a QueryRowx.
type Row struct{}

// Scan copies the row's columns into dest.
func (r *Row) Scan(dest ...interface{}) error { panic("stub") }

// Stmt wraps *sql.Stmt; its Exec methods are database/sql's own.
type Stmt struct {
	*sql.Stmt
}

// MustExec runs the statement and panics on error.
func (s *Stmt) MustExec(args ...interface{}) sql.Result { panic("stub") }

// MustExecContext runs the statement and panics on error.
func (s *Stmt) MustExecContext(ctx context.Context, args ...interface{}) sql.Result { panic("stub") }

// NamedStmt is a prepared named statement.
type NamedStmt struct {
	QueryString string
}

// Exec runs the statement.
func (n *NamedStmt) Exec(arg interface{}) (sql.Result, error) { panic("stub") }

// ExecContext runs the statement.
func (n *NamedStmt) ExecContext(ctx context.Context, arg interface{}) (sql.Result, error) {
	panic("stub")
}

// MustExec runs the statement and panics on error.
func (n *NamedStmt) MustExec(arg interface{}) sql.Result { panic("stub") }

// MustExecContext runs the statement and panics on error.
func (n *NamedStmt) MustExecContext(ctx context.Context, arg interface{}) sql.Result {
	panic("stub")
}

// Execer runs statements.
type Execer interface {
	Exec(query string, args ...interface{}) (sql.Result, error)
}

// ExecerContext runs statements.
type ExecerContext interface {
	ExecContext(ctx context.Context, query string, args ...interface{}) (sql.Result, error)
}

// Queryer runs queries.
type Queryer interface {
	Query(query string, args ...interface{}) (*sql.Rows, error)
	Queryx(query string, args ...interface{}) (*Rows, error)
	QueryRowx(query string, args ...interface{}) *Row
}

// QueryerContext runs queries.
type QueryerContext interface {
	QueryContext(ctx context.Context, query string, args ...interface{}) (*sql.Rows, error)
	QueryxContext(ctx context.Context, query string, args ...interface{}) (*Rows, error)
	QueryRowxContext(ctx context.Context, query string, args ...interface{}) *Row
}

type binder interface {
	DriverName() string
	Rebind(string) string
	BindNamed(string, interface{}) (string, []interface{}, error)
}

// Ext is what the package-level Named* and Must* functions take: a DB or a Tx.
type Ext interface {
	binder
	Queryer
	Execer
}

// ExtContext is Ext with contexts.
type ExtContext interface {
	binder
	QueryerContext
	ExecerContext
}

// NamedExec runs a named statement on e.
func NamedExec(e Ext, query string, arg interface{}) (sql.Result, error) { panic("stub") }

// NamedExecContext runs a named statement on e.
func NamedExecContext(ctx context.Context, e ExtContext, query string, arg interface{}) (sql.Result, error) {
	panic("stub")
}

// MustExec runs a statement on e and panics on error.
func MustExec(e Execer, query string, args ...interface{}) sql.Result { panic("stub") }

// MustExecContext runs a statement on e and panics on error.
func MustExecContext(ctx context.Context, e ExecerContext, query string, args ...interface{}) sql.Result {
	panic("stub")
}

// Select scans every row into dest, a slice.
func (db *DB) Select(dest interface{}, query string, args ...interface{}) error { panic("stub") }

// SelectContext scans every row into dest, a slice.
func (db *DB) SelectContext(ctx context.Context, dest interface{}, query string, args ...interface{}) error {
	panic("stub")
}

// PrepareNamedContext prepares a named statement.
func (db *DB) PrepareNamedContext(ctx context.Context, query string) (*NamedStmt, error) {
	panic("stub")
}

// Select scans every row into dest, a slice.
func (tx *Tx) Select(dest interface{}, query string, args ...interface{}) error { panic("stub") }

// SelectContext scans every row into dest, a slice.
func (tx *Tx) SelectContext(ctx context.Context, dest interface{}, query string, args ...interface{}) error {
	panic("stub")
}

// PrepareNamed prepares a named statement on the transaction.
func (tx *Tx) PrepareNamed(query string) (*NamedStmt, error) { panic("stub") }

// PrepareNamedContext prepares a named statement on the transaction.
func (tx *Tx) PrepareNamedContext(ctx context.Context, query string) (*NamedStmt, error) {
	panic("stub")
}

// Preparex prepares a statement on the transaction.
func (tx *Tx) Preparex(query string) (*Stmt, error) { panic("stub") }

// Select scans every row into dest, a slice.
func (n *NamedStmt) Select(dest interface{}, arg interface{}) error { panic("stub") }

// SelectContext scans every row into dest, a slice.
func (n *NamedStmt) SelectContext(ctx context.Context, dest interface{}, arg interface{}) error {
	panic("stub")
}

// Get scans one row into dest.
func (n *NamedStmt) Get(dest interface{}, arg interface{}) error { panic("stub") }

// GetContext scans one row into dest.
func (n *NamedStmt) GetContext(ctx context.Context, dest interface{}, arg interface{}) error {
	panic("stub")
}

// Queryx runs the statement.
func (n *NamedStmt) Queryx(arg interface{}) (*Rows, error) { panic("stub") }

// QueryxContext runs the statement.
func (n *NamedStmt) QueryxContext(ctx context.Context, arg interface{}) (*Rows, error) {
	panic("stub")
}

// QueryRowx runs the statement for one row.
func (n *NamedStmt) QueryRowx(arg interface{}) *Row { panic("stub") }

// QueryRowxContext runs the statement for one row.
func (n *NamedStmt) QueryRowxContext(ctx context.Context, arg interface{}) *Row { panic("stub") }

// Select scans every row into dest, a slice.
func (s *Stmt) Select(dest interface{}, args ...interface{}) error { panic("stub") }

// SelectContext scans every row into dest, a slice.
func (s *Stmt) SelectContext(ctx context.Context, dest interface{}, args ...interface{}) error {
	panic("stub")
}

// Get scans one row into dest.
func (s *Stmt) Get(dest interface{}, args ...interface{}) error { panic("stub") }

// GetContext scans one row into dest.
func (s *Stmt) GetContext(ctx context.Context, dest interface{}, args ...interface{}) error {
	panic("stub")
}

// Queryx runs the statement.
func (s *Stmt) Queryx(args ...interface{}) (*Rows, error) { panic("stub") }

// QueryxContext runs the statement.
func (s *Stmt) QueryxContext(ctx context.Context, args ...interface{}) (*Rows, error) {
	panic("stub")
}

// QueryRowx runs the statement for one row.
func (s *Stmt) QueryRowx(args ...interface{}) *Row { panic("stub") }

// QueryRowxContext runs the statement for one row.
func (s *Stmt) QueryRowxContext(ctx context.Context, args ...interface{}) *Row { panic("stub") }

// Select scans every row of a query into dest, a slice.
func Select(q Queryer, dest interface{}, query string, args ...interface{}) error { panic("stub") }

// SelectContext scans every row of a query into dest, a slice.
func SelectContext(ctx context.Context, q QueryerContext, dest interface{}, query string, args ...interface{}) error {
	panic("stub")
}

// Get scans one row of a query into dest.
func Get(q Queryer, dest interface{}, query string, args ...interface{}) error { panic("stub") }

// GetContext scans one row of a query into dest.
func GetContext(ctx context.Context, q QueryerContext, dest interface{}, query string, args ...interface{}) error {
	panic("stub")
}

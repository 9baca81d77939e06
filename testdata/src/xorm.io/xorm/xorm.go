// Package xorm is a stub of xorm.io/xorm v1.4.3 for the analyzer tests. It
// declares only what idemlint's models and test packages use, with the real
// signatures; apicheck keeps it in step with the real API.
package xorm

import (
	"context"
	"database/sql"
)

// Engine is xorm's database handle; its statements run in sessions of their own.
type Engine struct{}

// NewEngine opens an engine on a driver and data source.
func NewEngine(driverName, dataSourceName string, driverOptions ...func(db *sql.DB) error) (*Engine, error) {
	panic("stub")
}

// NewSession returns a session, which may begin a transaction.
func (engine *Engine) NewSession() *Session { panic("stub") }

// Context returns a session whose statements use ctx.
func (engine *Engine) Context(ctx context.Context) *Session { panic("stub") }

// Exec runs raw SQL: the statement text, then its arguments.
func (engine *Engine) Exec(sqlOrArgs ...any) (sql.Result, error) { panic("stub") }

// Insert inserts the records (structs, or slices of them).
func (engine *Engine) Insert(beans ...any) (int64, error) { panic("stub") }

// Session is a chain of statements, in a transaction after Begin.
type Session struct{}

// Begin starts a transaction.
func (session *Session) Begin() error { panic("stub") }

// Commit commits the transaction.
func (session *Session) Commit() error { panic("stub") }

// Close releases the session.
func (session *Session) Close() error { panic("stub") }

// Exec runs raw SQL: the statement text, then its arguments.
func (session *Session) Exec(sqlOrArgs ...any) (sql.Result, error) { panic("stub") }

// Insert inserts the records (structs, or slices of them).
func (session *Session) Insert(beans ...any) (int64, error) { panic("stub") }

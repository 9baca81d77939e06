// Package dialect is a stub of entgo.io/ent/dialect v0.14.5 for the analyzer tests. It
// declares only the driver interfaces the sqlgraph stub and the generated test client use,
// with the real method sets; apicheck keeps it in step with the real API.
package dialect

import (
	"context"
	"database/sql/driver"
)

// ExecQuerier wraps the two database operations.
type ExecQuerier interface {
	Exec(ctx context.Context, query string, args, v any) error
	Query(ctx context.Context, query string, args, v any) error
}

// Driver is what a generated client holds.
type Driver interface {
	ExecQuerier
	Tx(context.Context) (Tx, error)
	Close() error
	Dialect() string
}

// Tx is a transaction of a Driver.
type Tx interface {
	ExecQuerier
	driver.Tx
}

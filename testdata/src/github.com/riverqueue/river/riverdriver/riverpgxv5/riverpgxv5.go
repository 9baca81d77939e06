// Package riverpgxv5 is a stub of
// github.com/riverqueue/river/riverdriver/riverpgxv5 v0.51.2, so test code can
// write river.NewClient(riverpgxv5.New(pool), cfg) and
// river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job) as real code does.
package riverpgxv5

import (
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver"
)

// Driver is River's pgx v5 driver.
type Driver struct{}

// The stub must keep *Driver a riverdriver.Driver[pgx.Tx], as the real one is.
var _ riverdriver.Driver[pgx.Tx] = (*Driver)(nil)

// New returns a driver on dbPool.
func New(dbPool *pgxpool.Pool) *Driver { return &Driver{} }

// ArgPlaceholder returns the positional argument marker, "$".
func (d *Driver) ArgPlaceholder() string { return "$" }

// DatabaseName returns "postgres".
func (d *Driver) DatabaseName() string { return "postgres" }

// PoolIsSet reports whether the driver has a pool.
func (d *Driver) PoolIsSet() bool { return true }

// UnwrapExecutor wraps a pgx transaction as a driver executor.
func (d *Driver) UnwrapExecutor(tx pgx.Tx) riverdriver.ExecutorTx { panic("stub") }

// UnwrapTx returns the pgx transaction of a driver executor.
func (d *Driver) UnwrapTx(execTx riverdriver.ExecutorTx) pgx.Tx { panic("stub") }

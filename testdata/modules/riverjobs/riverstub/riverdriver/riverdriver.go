// Package riverdriver is a partial stub of
// github.com/riverqueue/river/riverdriver v0.51.2. It exists only because
// river.NewClient and river.JobCompleteTx mention Driver in their signatures.
//
// Driver and ExecutorTx declare only some of the real interfaces' methods:
// the full ones drag in the whole executor API, and no code the linter checks
// implements them. apicheck knows they are partial. Driver keeps UnwrapTx and
// UnwrapExecutor because they mention TTx: without them river.NewClient
// could not infer TTx from a *riverpgxv5.Driver argument.
package riverdriver

import "context"

// Driver is the database driver a River client runs on (partial).
type Driver[TTx any] interface {
	ArgPlaceholder() string
	DatabaseName() string
	PoolIsSet() bool
	UnwrapExecutor(tx TTx) ExecutorTx
	UnwrapTx(execTx ExecutorTx) TTx
}

// ExecutorTx is a driver executor inside a transaction (partial).
type ExecutorTx interface {
	Commit(ctx context.Context) error
	Rollback(ctx context.Context) error
}

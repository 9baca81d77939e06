// Package worker drains the queues through package poll's helper, with callbacks that write
// the ledger.
package worker

import (
	"context"
	"database/sql"

	"callbacks/poll"
	"callbacks/retry"
	"callbacks/store"
)

// Worker holds the database the callbacks write to.
type Worker struct{ DB *sql.DB }

// Drain hands a literal to the helper: its INSERT is Drain's, through poll.Poll.
//
//idemlint:handler
func (w *Worker) Drain(ctx context.Context) error {
	return poll.Poll(ctx, w.DB, "ledger", func(ctx context.Context, payload []byte) bool {
		return store.Add(ctx, w.DB, payload) == nil
	})
}

// DrainMethod hands a method value to the helper.
//
//idemlint:handler
func (w *Worker) DrainMethod(ctx context.Context) error {
	return poll.Poll(ctx, w.DB, "ledger", w.add)
}

func (w *Worker) add(ctx context.Context, payload []byte) bool {
	return store.Add(ctx, w.DB, payload) == nil
}

// DrainClean is Drain's twin with a write that converges: protected, no finding.
//
//idemlint:handler
func (w *Worker) DrainClean(ctx context.Context) error {
	return poll.Poll(ctx, w.DB, "ledger", func(ctx context.Context, payload []byte) bool {
		return store.Put(ctx, w.DB, payload) == nil
	})
}

// Retried hands a literal to a helper with no fact: the INSERT counts where the literal is.
//
//idemlint:handler
func (w *Worker) Retried(ctx context.Context, payload []byte) error {
	return retry.Do(3, func() error { return store.Add(ctx, w.DB, payload) })
}

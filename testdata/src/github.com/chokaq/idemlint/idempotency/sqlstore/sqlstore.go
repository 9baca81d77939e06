// Package sqlstore is a stub of the runtime's SQL store, with the real signatures of the
// calls the analyzer recognises.
package sqlstore

import (
	"context"
	"database/sql"
)

type Store struct{}

func (s *Store) CompleteTx(ctx context.Context, tx *sql.Tx) error { panic("stub") }

// StepTx is idempotency.Step for a step whose rows are written in the handler's
// transaction, with its recovery point written in the same transaction.
func StepTx[T any](ctx context.Context, s *Store, tx *sql.Tx, name string, fn func(ctx context.Context) (T, error)) (T, error) {
	panic("stub")
}

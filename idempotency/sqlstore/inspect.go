package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/chokaq/idemlint/idempotency"
)

var _ idempotency.Inspector = (*Store)(nil)

// Inspect implements idempotency.Inspector: the key's live row and its kept steps, or a zero
// Record (with the steps, if any are kept).
func (s *Store) Inspect(ctx context.Context, key string) (idempotency.Record, error) {
	steps, err := s.loadSteps(ctx, s.db, key)
	if err != nil {
		return idempotency.Record{}, fmt.Errorf("sqlstore: inspect: %w", err)
	}
	res, live, err := s.scanClaim(s.db.QueryRowContext(ctx, s.q.inspect, key, s.now()))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return idempotency.Record{Steps: steps}, nil
	case err != nil:
		return idempotency.Record{}, fmt.Errorf("sqlstore: inspect: %w", err)
	case !live:
		return idempotency.Record{Steps: steps}, nil
	}
	return idempotency.Record{Status: res.Status, Token: res.Token, Fingerprint: res.Fingerprint, ExpiresIn: res.ExpiresIn, Reason: res.Reason, Steps: steps}, nil
}

// Forget implements idempotency.Inspector: it deletes the key's row and its steps. Epochs
// keep growing across it (see the epoch sequence or counter in the migrations).
func (s *Store) Forget(ctx context.Context, key string) error {
	if s.dialect == SQLite {
		return s.inTx(ctx, "forget", func(tx *sql.Tx) error {
			for _, q := range []string{s.q.forget, s.steps().forgetSteps} {
				if _, err := tx.ExecContext(ctx, q, key); err != nil {
					return fmt.Errorf("sqlstore: forget: %w", err)
				}
			}
			return nil
		})
	}
	if _, err := s.db.ExecContext(ctx, s.q.forget, key); err != nil {
		return fmt.Errorf("sqlstore: forget: %w", err)
	}
	return nil
}

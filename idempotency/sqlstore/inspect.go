package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/chokaq/idemlint/idempotency"
)

var _ idempotency.Inspector = (*Store)(nil)

// Inspect implements idempotency.Inspector: the key's live row, or a zero Record.
func (s *Store) Inspect(ctx context.Context, key string) (idempotency.Record, error) {
	res, live, err := s.scanClaim(s.db.QueryRowContext(ctx, s.q.inspect, key, s.now()))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return idempotency.Record{}, nil
	case err != nil:
		return idempotency.Record{}, fmt.Errorf("sqlstore: inspect: %w", err)
	case !live:
		return idempotency.Record{}, nil
	}
	return idempotency.Record{Status: res.Status, Token: res.Token, Fingerprint: res.Fingerprint, ExpiresIn: res.ExpiresIn}, nil
}

// Forget implements idempotency.Inspector: it deletes the key's row. Epochs keep growing
// across it (see the epoch sequence or counter in the migrations).
func (s *Store) Forget(ctx context.Context, key string) error {
	if _, err := s.db.ExecContext(ctx, s.q.forget, key); err != nil {
		return fmt.Errorf("sqlstore: forget: %w", err)
	}
	return nil
}

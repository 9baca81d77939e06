// Package alerts stores the alerts of package collectedalerts: an insert of an alert only // want package:"has effects"
// when none is open for the product claims it (INSERT ... WHERE NOT EXISTS ... RETURNING,
// pgx.ErrNoRows when one is); an insert guarded by another table's rows claims nothing.
package alerts

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Store holds the alerts.
type Store struct{ Pool *pgxpool.Pool }

// Open opens an alert for the product unless one is open: pgx.ErrNoRows when one is.
func (s *Store) Open(ctx context.Context, product string) (string, error) { // want Open:`effects sql.write:protected\(\(\*pgxpool.Pool\).QueryRow\) claims\(result 1\)`
	var id string
	err := s.Pool.QueryRow(ctx, `INSERT INTO alerts (product) SELECT $1
		WHERE NOT EXISTS (SELECT 1 FROM alerts WHERE product = $1 AND resolved_at IS NULL)
		RETURNING id`, product).Scan(&id)
	return id, err
}

// OpenUnlisted opens an alert unless the product is muted: a repeat inserts another.
func (s *Store) OpenUnlisted(ctx context.Context, product string) (string, error) { // want OpenUnlisted:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).QueryRow\)`
	var id string
	err := s.Pool.QueryRow(ctx, `INSERT INTO alerts (product) SELECT $1
		WHERE NOT EXISTS (SELECT 1 FROM muted WHERE product = $1)
		RETURNING id`, product).Scan(&id)
	return id, err
}

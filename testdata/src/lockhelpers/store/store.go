// Package store is a repository whose reads lock the row they return when the statement // want package:"has effects"
// says FOR UPDATE, on whatever database handle the caller passes: a transaction or the
// pool.
package store

import (
	"context"
	"time"

	"github.com/jmoiron/sqlx"
)

// Outbox is a signing request waiting for its result.
type Outbox struct {
	RequestID   string     `db:"request_id"`
	CompletedAt *time.Time `db:"completed_at"`
}

// Store reads and writes the outbox and the credentials.
type Store struct{}

// OutboxForUpdate reads the request's row and locks it until the caller's transaction ends.
func (s *Store) OutboxForUpdate(ctx context.Context, dbi sqlx.QueryerContext, id string) (*Outbox, error) { // want OutboxForUpdate:`locks\(result 0\)`
	const q = `SELECT request_id, completed_at FROM signing_outbox WHERE request_id = $1 FOR UPDATE`
	out := &Outbox{}
	if err := sqlx.GetContext(ctx, dbi, out, q, id); err != nil {
		return nil, err
	}
	return out, nil
}

// LockOutbox hands back what OutboxForUpdate returns, locked on the transaction it is given.
func (s *Store) LockOutbox(ctx context.Context, id string, tx *sqlx.Tx) (*Outbox, error) { // want LockOutbox:`locks\(result 0\)`
	return s.OutboxForUpdate(ctx, tx, id)
}

// View is what the service shows of a request.
type View struct {
	Done bool
}

func toView(o *Outbox) *View { return &View{Done: o.CompletedAt != nil} }

// OutboxViewForUpdate locks the request's row and returns the service's view of it.
func (s *Store) OutboxViewForUpdate(ctx context.Context, dbi sqlx.QueryerContext, id string) (*View, error) { // want OutboxViewForUpdate:`locks\(result 0\)`
	row := &Outbox{}
	if err := sqlx.GetContext(ctx, dbi, row, `SELECT request_id, completed_at FROM signing_outbox WHERE request_id = $1 FOR UPDATE`, id); err != nil {
		return nil, err
	}
	return toView(row), nil
}

// UpdateRetryCount counts another attempt at the request: bookkeeping, true on a repeat.
func (s *Store) UpdateRetryCount(ctx context.Context, tx *sqlx.Tx, id string) error { // want UpdateRetryCount:`effects sql.write:protected\(\(\*sql.Tx\).ExecContext\)`
	_, err := tx.ExecContext(ctx, `UPDATE signing_outbox SET retries = retries + 1 WHERE request_id = $1`, id)
	return err
}

// Outbox reads the request's row without locking it.
func (s *Store) Outbox(ctx context.Context, dbi sqlx.QueryerContext, id string) (*Outbox, error) {
	const q = `SELECT request_id, completed_at FROM signing_outbox WHERE request_id = $1`
	out := &Outbox{}
	if err := sqlx.GetContext(ctx, dbi, out, q, id); err != nil {
		return nil, err
	}
	return out, nil
}

// InsertCredentials adds the signed credentials: a new row on every call.
func (s *Store) InsertCredentials(ctx context.Context, tx *sqlx.Tx, id string) error { // want InsertCredentials:`effects sql.write:unprotected\(\(\*sql.Tx\).ExecContext\)`
	_, err := tx.ExecContext(ctx, `INSERT INTO order_creds (request_id, issued_at) VALUES ($1, now())`, id)
	return err
}

// UpdateOutboxCompleted marks the request done.
func (s *Store) UpdateOutboxCompleted(ctx context.Context, tx *sqlx.Tx, id string, at time.Time) error { // want UpdateOutboxCompleted:`effects sql.write:protected\(\(\*sql.Tx\).ExecContext\)`
	_, err := tx.ExecContext(ctx, `UPDATE signing_outbox SET completed_at = $2 WHERE request_id = $1`, id, at)
	return err
}

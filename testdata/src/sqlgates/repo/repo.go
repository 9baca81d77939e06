// Package repo holds the state writes of package sqlgates: a helper that reports whether its // want package:"has effects"
// conditional UPDATE changed a row, sqlc-style queries on a DBTX, and a repository whose
// duplicate-key error is a sentinel.
package repo

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrDuplicate is returned by Create when the order is already stored.
var ErrDuplicate = errors.New("repo: duplicate order")

// Repo stores orders.
type Repo struct{ Pool *pgxpool.Pool }

// MarkNotified sets notified_at once: true when this call set it.
func (r *Repo) MarkNotified(ctx context.Context, id string) (bool, error) { // want MarkNotified:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\) claims\(result 0\)`
	tag, err := r.Pool.Exec(ctx, `UPDATE orders SET notified_at = now() WHERE id = $1 AND notified_at IS NULL`, id)
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() > 0, nil
}

// Touch sets updated_at whatever it was: its count is 1 on every run, no claim.
func (r *Repo) Touch(ctx context.Context, id string) (bool, error) { // want Touch:`effects sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	tag, err := r.Pool.Exec(ctx, `UPDATE orders SET updated_at = now() WHERE id = $1`, id)
	return tag.RowsAffected() == 1, err
}

// Create inserts an order; a second insert of the same id fails with ErrDuplicate.
func (r *Repo) Create(ctx context.Context, id string) error { // want Create:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	_, err := r.Pool.Exec(ctx, `INSERT INTO orders (id) VALUES ($1)`, id)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return ErrDuplicate
	}
	return err
}

// DBTX is what sqlc's generated Queries run statements on: a pool or a transaction.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Queries is sqlc's generated query set.
type Queries struct{ db DBTX }

// New returns the queries on db.
func New(db DBTX) *Queries { return &Queries{db: db} }

const claimOutbox = `-- name: ClaimOutbox :one
DELETE FROM outbox WHERE id = $1 RETURNING payload`

// ClaimOutbox deletes an outbox row and returns its payload (pgx.ErrNoRows: already taken).
func (q *Queries) ClaimOutbox(ctx context.Context, id string) (string, error) { // want ClaimOutbox:`effects sql.write:protected\(\(repo.DBTX\).QueryRow\) claims\(result 1\)`
	row := q.db.QueryRow(ctx, claimOutbox, id)
	var payload string
	err := row.Scan(&payload)
	return payload, err
}

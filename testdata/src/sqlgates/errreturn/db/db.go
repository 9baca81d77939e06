// Package db is sqlc's generated queries for orders and refunds, with a store that runs // want package:"has effects"
// some of them in a transaction, as sqlc's guides write execTx.
package db

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DBTX is what the queries run on.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Queries is sqlc's query set.
type Queries struct{ db DBTX }

const updateRefundToFailed = `-- name: UpdateRefundToFailed :one
UPDATE refunds SET status = 'failed' WHERE id = $1 AND status IN ('pending', 'processing') RETURNING id`

// UpdateRefundToFailed moves a pending refund to failed: no row once it has.
func (q *Queries) UpdateRefundToFailed(ctx context.Context, id int64) (int64, error) { // want UpdateRefundToFailed:`effects sql.write:protected\(\(db.DBTX\).QueryRow\) claims\(result 1\)`
	var out int64
	err := q.db.QueryRow(ctx, updateRefundToFailed, id).Scan(&out)
	return out, err
}

const touchRefund = `-- name: TouchRefund :one
UPDATE refunds SET status = 'failed' WHERE id = $1 RETURNING id`

// TouchRefund sets a refund to failed whatever it was: a row on every run.
func (q *Queries) TouchRefund(ctx context.Context, id int64) (int64, error) { // want TouchRefund:`effects sql.write:protected\(\(db.DBTX\).QueryRow\)`
	var out int64
	err := q.db.QueryRow(ctx, touchRefund, id).Scan(&out)
	return out, err
}

const markRefundFailed = `-- name: MarkRefundFailed :exec
UPDATE refunds SET status = 'failed' WHERE id = $1 AND status = 'pending'`

// MarkRefundFailed is the same update with no RETURNING: no row changed is no error.
func (q *Queries) MarkRefundFailed(ctx context.Context, id int64) error { // want MarkRefundFailed:`effects sql.write:protected\(\(db.DBTX\).Exec\)`
	_, err := q.db.Exec(ctx, markRefundFailed, id)
	return err
}

const insertAlert = `-- name: InsertAlert :exec
INSERT INTO alerts (refund_id, level) VALUES ($1, $2)`

// InsertAlert adds an alert row.
func (q *Queries) InsertAlert(ctx context.Context, refundID int64, level string) error { // want InsertAlert:`effects sql.write:unprotected\(\(db.DBTX\).Exec\)`
	_, err := q.db.Exec(ctx, insertAlert, refundID, level)
	return err
}

const cancelOrder = `-- name: CancelOrder :one
UPDATE orders SET status = 'cancelled' WHERE id = $1 AND status = $2 RETURNING id`

// CancelOrder cancels an order still in the status its caller expects.
func (q *Queries) CancelOrder(ctx context.Context, id int64, expected string) (int64, error) { // want CancelOrder:`effects sql.write:protected\(\(db.DBTX\).QueryRow\) claims\(result 1\)`
	var out int64
	err := q.db.QueryRow(ctx, cancelOrder, id, expected).Scan(&out)
	return out, err
}

const insertStatusLog = `-- name: InsertStatusLog :exec
INSERT INTO order_status_logs (order_id, to_status) VALUES ($1, 'cancelled')`

// InsertStatusLog records an order's move to cancelled.
func (q *Queries) InsertStatusLog(ctx context.Context, id int64) error { // want InsertStatusLog:`effects sql.write:unprotected\(\(db.DBTX\).Exec\)`
	_, err := q.db.Exec(ctx, insertStatusLog, id)
	return err
}

// Store runs queries alone or together.
type Store struct {
	*Queries
	pool *pgxpool.Pool
}

func (s *Store) execTx(ctx context.Context, fn func(*Queries) error) error { // want execTx:`calls-params\(1\)`
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(&Queries{db: tx}); err != nil {
		_ = tx.Rollback(ctx)
		return err
	}
	return tx.Commit(ctx)
}

// CancelOrderTx cancels the order and logs it, in one transaction: the log row is written
// only when the cancel found the order in the expected status.
func (s *Store) CancelOrderTx(ctx context.Context, id int64, expected string) error { // want CancelOrderTx:`effects sql.write:claimed\(\(db.DBTX\).Exec\) claims\(result 0\)`
	return s.execTx(ctx, func(q *Queries) error {
		if _, err := q.CancelOrder(ctx, id, expected); err != nil {
			return err
		}
		return q.InsertStatusLog(ctx, id)
	})
}

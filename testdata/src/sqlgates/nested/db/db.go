// Package db is sqlc's generated queries for refunds, and a store that embeds them. // want package:"has effects"
package db

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrRecordNotFound is pgx's no-rows error under the store's name.
var ErrRecordNotFound = pgx.ErrNoRows

// DBTX is what the queries run on.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Queries is sqlc's query set.
type Queries struct{ db DBTX }

// RefundOrder is a refund row.
type RefundOrder struct {
	ID     int64
	Amount int64
}

const updateRefundOrderToSuccess = `-- name: UpdateRefundOrderToSuccess :one
UPDATE refund_orders SET status = 'success' WHERE id = $1 AND status IN ('pending', 'processing') RETURNING id, amount`

// UpdateRefundOrderToSuccess moves a pending refund to success.
func (q *Queries) UpdateRefundOrderToSuccess(ctx context.Context, id int64) (RefundOrder, error) { // want UpdateRefundOrderToSuccess:`effects sql.write:protected\(\(db.DBTX\).QueryRow\) claims\(result 1\)`
	row := q.db.QueryRow(ctx, updateRefundOrderToSuccess, id)
	var r RefundOrder
	err := row.Scan(&r.ID, &r.Amount)
	return r, err
}

const addPrepaid = `-- name: AddPrepaid :exec
UPDATE reservations SET prepaid_amount = prepaid_amount + $2 WHERE id = $1`

// AddPrepaid adds to a reservation's prepaid amount.
func (q *Queries) AddPrepaid(ctx context.Context, id, delta int64) error { // want AddPrepaid:`effects sql.write:unprotected\(\(db.DBTX\).Exec\)`
	_, err := q.db.Exec(ctx, addPrepaid, id, delta)
	return err
}

const touchRefundOrder = `-- name: TouchRefundOrder :one
UPDATE refund_orders SET status = 'success' WHERE id = $1 RETURNING id, amount`

// TouchRefundOrder sets a refund to success whatever it was: a row on every run.
func (q *Queries) TouchRefundOrder(ctx context.Context, id int64) (RefundOrder, error) { // want TouchRefundOrder:`effects sql.write:protected\(\(db.DBTX\).QueryRow\)`
	row := q.db.QueryRow(ctx, touchRefundOrder, id)
	var r RefundOrder
	err := row.Scan(&r.ID, &r.Amount)
	return r, err
}

// Store is what the workers use.
type Store interface {
	UpdateRefundOrderToSuccess(ctx context.Context, id int64) (RefundOrder, error)
	AddPrepaid(ctx context.Context, id, delta int64) error
	TouchRefundOrder(ctx context.Context, id int64) (RefundOrder, error)
}

// SQLStore runs the queries on a pool.
type SQLStore struct {
	*Queries
	pool *pgxpool.Pool
}

// NewStore returns the store on pool.
func NewStore(pool *pgxpool.Pool) Store { return &SQLStore{Queries: &Queries{db: pool}, pool: pool} }

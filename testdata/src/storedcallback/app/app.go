// Package app wires its handler into the mq consumer through a local variable. // want package:"has effects"
package app

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"

	"storedcallback/mq"
)

var db *sql.DB

// Start gives the consumer a literal held in a variable: it is the orders' handler.
func Start(ctx context.Context, r *kafka.Reader) error { // want Start:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	handler := func(ctx context.Context, o mq.Order) error {
		_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", o.ID) // want `handler func literal in Start: SQL write not safe to repeat: INSERT without conflict handling`
		return err
	}
	return mq.NewConsumer(r, handler).Run(ctx)
}

// Nightly gives the retrier a literal with the same write: a retry helper runs no
// deliveries, and its function is no handler.
func Nightly(ctx context.Context) error { // want Nightly:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	job := func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "INSERT INTO reports (day) VALUES (now())")
		return err
	}
	return mq.NewRetrier(job).Do(ctx)
}

// orders is the Worker's OrderHandler: its HandleOrder is the handler; its other exported
// method, and the Auditor's Done, which the worker calls with no message, are not.
type orders struct{}

func (orders) HandleOrder(ctx context.Context, o mq.Order) error { // want HandleOrder:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", o.ID) // want `handler \(orders\).HandleOrder: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

func (orders) Reindex(ctx context.Context) error { // want Reindex:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO reindex (at) VALUES (now())")
	return err
}

type audit struct{}

func (audit) Done(ctx context.Context, n int) error { // want Done:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO audit (n) VALUES ($1)", n)
	return err
}

// Work starts a Worker.
func Work(ctx context.Context, r *kafka.Reader) {
	mq.NewWorker(r, orders{}, audit{}).Start(ctx)
}

func refund(ctx context.Context, o mq.Order) error {
	_, err := db.ExecContext(ctx, "INSERT INTO refunds (order_id) VALUES ($1)", o.ID) // want `handler refund: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

func pumped(ctx context.Context, o mq.Order) error {
	_, err := db.ExecContext(ctx, "INSERT INTO pumped (order_id) VALUES ($1)", o.ID) // want `handler pumped: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

func idle(ctx context.Context) error {
	_, err := db.ExecContext(ctx, "INSERT INTO idle (at) VALUES (now())")
	return err
}

// Route registers refund on a Router and runs a Pump configured with pumped and idle.
func Route(ctx context.Context, r *mq.Router, k *kafka.Reader) error { // want Route:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	r.Handle("refunds", refund)
	return (&mq.Pump{Reader: k, OnOrder: pumped, OnIdle: idle}).Run(ctx)
}

// ledger is what Book's pool factory makes: HandleMessage is the handler; Setup, which
// the pool never calls with a message, is not.
type ledger struct{}

func (*ledger) Setup() error { // want Setup:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	_, err := db.Exec("INSERT INTO ledger_runs (at) VALUES (now())")
	return err
}

func (*ledger) HandleMessage(m kafka.Message) error { // want HandleMessage:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	_, err := db.Exec("INSERT INTO ledger (key) VALUES ($1)", string(m.Key)) // want `handler \(\*ledger\).HandleMessage: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

func (*ledger) Close() {}

// Book runs a pool whose factory makes ledgers.
func Book(ctx context.Context, r *kafka.Reader) {
	mq.NewPool(r, func() mq.PoolHandler { return &ledger{} }).Run(ctx)
}

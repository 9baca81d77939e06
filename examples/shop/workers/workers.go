// Package workers holds the shop's River jobs: refunds, wallet payouts and
// the outbox writer.
package workers

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"

	"github.com/chokaq/idemlint/examples/shop/billing"
	"github.com/chokaq/idemlint/examples/shop/store"
)

// RefundArgs are the arguments of a refund job.
type RefundArgs struct {
	OrderID         string `json:"order_id"`
	PaymentIntentID string `json:"payment_intent_id"`
}

// Kind implements river.JobArgs.
func (RefundArgs) Kind() string { return "refund" }

// RefundWorker refunds an order's payment in full.
type RefundWorker struct {
	river.WorkerDefaults[RefundArgs]
	Billing *billing.Client
}

// Work implements river.Worker.
//
// idemlint: flagged, payment with an unstable idempotency key (uuid.NewString)
func (w *RefundWorker) Work(ctx context.Context, job *river.Job[RefundArgs]) error {
	if _, err := w.Billing.Refund(ctx, job.Args.PaymentIntentID); err != nil {
		return fmt.Errorf("refund order %s: %w", job.Args.OrderID, err)
	}
	return nil
}

// PayoutArgs are the arguments of a wallet cash-out job.
type PayoutArgs struct {
	CustomerID    string `json:"customer_id"`
	StripeAccount string `json:"stripe_account"`
	AmountCents   int64  `json:"amount_cents"`
}

// Kind implements river.JobArgs.
func (PayoutArgs) Kind() string { return "wallet_payout" }

// PayoutWorker pays a customer's store credit out to their bank account and
// debits their wallet.
type PayoutWorker struct {
	river.WorkerDefaults[PayoutArgs]
	Billing *billing.Client
	Store   *store.Store
}

// Work implements river.Worker.
//
// idemlint: flagged, payment without an idempotency key and sql.write relative UPDATE
func (w *PayoutWorker) Work(ctx context.Context, job *river.Job[PayoutArgs]) error {
	args := job.Args
	if _, err := w.Billing.Payout(ctx, args.StripeAccount, args.AmountCents); err != nil {
		return fmt.Errorf("payout for customer %s: %w", args.CustomerID, err)
	}
	if err := w.Store.DebitWallet(ctx, args.CustomerID, args.AmountCents); err != nil {
		return fmt.Errorf("payout for customer %s: %w", args.CustomerID, err)
	}
	return nil
}

// OutboxArgs are the arguments of a job that queues an event for the
// message relay.
type OutboxArgs struct {
	EventID string          `json:"event_id"`
	Topic   string          `json:"topic"`
	Payload json.RawMessage `json:"payload"`
}

// Kind implements river.JobArgs.
func (OutboxArgs) Kind() string { return "outbox_write" }

// OutboxWorker writes an event to the outbox table in its own transaction.
type OutboxWorker struct {
	river.WorkerDefaults[OutboxArgs]
	DB *pgxpool.Pool
}

// Work implements river.Worker.
//
// idemlint: clean, outbox insert with ON CONFLICT inside a transaction
func (w *OutboxWorker) Work(ctx context.Context, job *river.Job[OutboxArgs]) error {
	tx, err := w.DB.Begin(ctx)
	if err != nil {
		return fmt.Errorf("outbox event %s: begin: %w", job.Args.EventID, err)
	}
	// Rollback after a successful Commit is a no-op.
	defer func() { _ = tx.Rollback(ctx) }()

	event := store.OutboxEvent{
		EventID: job.Args.EventID,
		Topic:   job.Args.Topic,
		Payload: job.Args.Payload,
	}
	if err := store.InsertOutbox(ctx, tx, event); err != nil {
		return fmt.Errorf("outbox event %s: %w", job.Args.EventID, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("outbox event %s: commit: %w", job.Args.EventID, err)
	}
	return nil
}

// Register adds the shop's River workers to workers.
func Register(workers *river.Workers, b *billing.Client, s *store.Store, db *pgxpool.Pool) {
	river.AddWorker(workers, &RefundWorker{Billing: b})
	river.AddWorker(workers, &PayoutWorker{Billing: b, Store: s})
	river.AddWorker(workers, &OutboxWorker{DB: db})
}

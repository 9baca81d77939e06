package tasks

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	"github.com/chokaq/idemlint/examples/shop/billing"
	"github.com/chokaq/idemlint/examples/shop/notify"
	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/chokaq/idemlint/idempotency/outbox"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// TypeSendReceipt is the receipt task the outbox relay enqueues for the mailer.
const TypeSendReceipt = "order:send_receipt"

// TypeFulfilOrder charges an order, tells the partner and queues its receipt.
const TypeFulfilOrder = "order:fulfil"

// FulfilOrderPayload is the payload of a TypeFulfilOrder task.
type FulfilOrderPayload struct {
	OrderID     string `json:"order_id"`
	Email       string `json:"email"`
	AmountCents int64  `json:"amount_cents"`
	PartnerURL  string `json:"partner_url"`
}

// FulfilHandler fulfils an order in three effects on three systems: a Stripe charge, a
// partner webhook and a receipt message. It runs behind the idempotency middleware (see
// RegisterFulfil), which answers the key (the order ID), its enforcement (the claim in
// PostgreSQL) and its retention. The charge and the webhook are recovery points
// (idempotency.Step), each also keyed at its provider: a delivery after a crash between them
// finds the charge's result recorded and goes on with the webhook. The receipt goes into the
// transactional outbox under an ID made from the order, in the transaction that completes
// the claim, and the relay (NewRelay) enqueues it for the mailer after the commit: an email,
// which has no deduplication of its own, is never sent from a handler that can run twice.
//
// idemlint: clean, behind the runtime middleware, each external effect in a step, the receipt through the outbox
type FulfilHandler struct {
	DB       *sql.DB
	Claims   *sqlstore.Store
	Billing  *billing.Client
	Notifier *notify.Notifier
}

// ProcessTask implements asynq.Handler.
func (h *FulfilHandler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	var p FulfilOrderPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return fmt.Errorf("fulfil order: %v: %w", err, asynq.SkipRetry)
	}
	paymentID, err := idempotency.Step(ctx, "charge", func(ctx context.Context) (string, error) {
		return h.Billing.Charge(ctx, p.OrderID, p.AmountCents)
	})
	if err != nil {
		return fmt.Errorf("fulfil order %s: %w", p.OrderID, err)
	}
	event, err := json.Marshal(map[string]string{"order_id": p.OrderID, "payment_id": paymentID})
	if err != nil {
		return fmt.Errorf("fulfil order %s: %w", p.OrderID, err)
	}
	if _, err := idempotency.Step(ctx, "partner", func(ctx context.Context) (bool, error) {
		return true, h.Notifier.PostWebhook(ctx, p.PartnerURL, "fulfilled-"+p.OrderID, event)
	}); err != nil {
		return fmt.Errorf("fulfil order %s: %w", p.OrderID, err)
	}

	receipt, err := json.Marshal(map[string]string{"order_id": p.OrderID, "email": p.Email})
	if err != nil {
		return fmt.Errorf("fulfil order %s: %w", p.OrderID, err)
	}
	id, err := outbox.ID("receipt", p.OrderID)
	if err != nil {
		return fmt.Errorf("fulfil order %s: %w", p.OrderID, err)
	}
	tx, err := h.DB.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("fulfil order %s: %w", p.OrderID, err)
	}
	defer tx.Rollback() //nolint:errcheck // a no-op after Commit
	if err := outbox.Put(ctx, tx, outbox.Message{ID: id, Topic: TypeSendReceipt, Payload: receipt}); err != nil {
		return fmt.Errorf("fulfil order %s: %w", p.OrderID, err)
	}
	if err := h.Claims.CompleteTx(ctx, tx); err != nil {
		return fmt.Errorf("fulfil order %s: %w", p.OrderID, err)
	}
	return tx.Commit()
}

// RegisterFulfil routes TypeFulfilOrder through the idempotency middleware, its claims,
// steps and completion markers in the shop's PostgreSQL database, keyed by the order ID and
// kept for 14 days.
func RegisterFulfil(mux *asynq.ServeMux, db *sql.DB, bill *billing.Client, ntf *notify.Notifier) error {
	claims, err := sqlstore.New(db, sqlstore.Config{Dialect: sqlstore.Postgres})
	if err != nil {
		return fmt.Errorf("fulfil order claims: %w", err)
	}
	key := idemasynq.PayloadKey(func(p FulfilOrderPayload) string { return p.OrderID })
	mw, err := idempotency.New(key, idempotency.WithStore(claims), idempotency.WithRetention(14*24*time.Hour))
	if err != nil {
		return fmt.Errorf("fulfil order middleware: %w", err)
	}
	mux.Handle(TypeFulfilOrder, idemasynq.Handler(mw, &FulfilHandler{DB: db, Claims: claims, Billing: bill, Notifier: ntf}))
	return nil
}

// NewRelay returns the relay that enqueues the outbox's messages as asynq tasks, each with
// the message's ID as its task ID (idemasynq.OutboxPublisher), so a message published again
// after a crash between the publish and its mark is refused by asynq as a duplicate. Rows
// and task IDs are kept as long as the middleware's completion markers, so a late
// redelivery's Put stays a no-op.
func NewRelay(db *sql.DB, client *asynq.Client) (*outbox.Relay, error) {
	retention := 14 * 24 * time.Hour
	return outbox.NewRelay(db, outbox.Config{
		Dialect:   outbox.Postgres,
		Retention: retention,
		Publisher: idemasynq.OutboxPublisher(client, asynq.Retention(retention)),
	})
}

// Package events holds the shop's Watermill message handlers.
package events

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/chokaq/idemlint/examples/shop/notify"
	"github.com/chokaq/idemlint/examples/shop/store"
)

// Topics the handlers subscribe and publish to.
const (
	TopicPaymentSucceeded = "payments.succeeded"
	TopicOrderPaid        = "orders.paid"
	TopicOrderShipped     = "orders.shipped"
)

// PaymentSucceeded is the body of a TopicPaymentSucceeded message.
type PaymentSucceeded struct {
	EventID         string `json:"event_id"`
	OrderID         string `json:"order_id"`
	PaymentIntentID string `json:"payment_intent_id"`
	AmountCents     int64  `json:"amount_cents"`
	WebhookURL      string `json:"webhook_url"`
}

// OrderShipped is the body of a TopicOrderShipped message.
type OrderShipped struct {
	OrderID        string `json:"order_id"`
	TrackingNumber string `json:"tracking_number"`
}

// Dependencies of the handlers. Watermill handlers are plain functions, so
// they are set once by Configure before the router runs.
var (
	orders   *store.Store
	notifier *notify.Notifier
	auditDB  *pgxpool.Pool
)

// Configure sets the store, notifier and audit database the handlers use.
// Call it before the router runs.
func Configure(s *store.Store, n *notify.Notifier, db *pgxpool.Pool) {
	orders, notifier, auditDB = s, n, db
}

// OnPaymentSucceeded forwards a successful payment to the merchant's webhook
// and records it in the payment audit table. It produces no follow-up
// messages.
//
// idemlint: flagged, sql.write statement built at run time (the webhook carries a stable key)
func OnPaymentSucceeded(msg *message.Message) ([]*message.Message, error) {
	var ev PaymentSucceeded
	if err := json.Unmarshal(msg.Payload, &ev); err != nil {
		return nil, fmt.Errorf("payment succeeded %s: decode: %w", msg.UUID, err)
	}
	ctx := msg.Context()
	if err := notifier.PostWebhook(ctx, ev.WebhookURL, ev.EventID, msg.Payload); err != nil {
		return nil, fmt.Errorf("payment succeeded %s: %w", ev.EventID, err)
	}
	if err := orders.RecordAudit(ctx, "payment_audit", msg.Payload); err != nil {
		return nil, fmt.Errorf("payment succeeded %s: %w", ev.EventID, err)
	}
	return nil, nil
}

// OnOrderShipped appends a shipped order to the shipment audit trail.
//
// idemlint: clean, the audit insert is declared idempotent by a directive
func OnOrderShipped(msg *message.Message) error {
	var ev OrderShipped
	if err := json.Unmarshal(msg.Payload, &ev); err != nil {
		return fmt.Errorf("order shipped %s: decode: %w", msg.UUID, err)
	}
	if err := appendShipmentAudit(msg.Context(), ev); err != nil {
		return fmt.Errorf("order shipped %s: %w", ev.OrderID, err)
	}
	return nil
}

// appendShipmentAudit inserts one row into the shipment audit trail.
// Duplicates are tolerated here and removed later.
//
//idemlint:idempotent -- audit rows are deduplicated by the nightly compaction job
func appendShipmentAudit(ctx context.Context, ev OrderShipped) error {
	_, err := auditDB.Exec(ctx,
		`INSERT INTO shipment_audit (order_id, tracking_number) VALUES ($1, $2)`,
		ev.OrderID, ev.TrackingNumber)
	if err != nil {
		return fmt.Errorf("events: append shipment audit for order %s: %w", ev.OrderID, err)
	}
	return nil
}

// Register adds the handlers to r: payment webhooks with their (currently
// empty) output on TopicOrderPaid, and the shipment audit consumer.
func Register(r *message.Router, sub message.Subscriber, pub message.Publisher) {
	r.AddHandler("payment_succeeded_webhook", TopicPaymentSucceeded, sub, TopicOrderPaid, pub, OnPaymentSucceeded)
	r.AddConsumerHandler("order_shipped_audit", TopicOrderShipped, sub, OnOrderShipped)
}

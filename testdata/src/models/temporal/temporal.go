// Package temporal exercises the Temporal model: a struct of activities registered whole,
// a function registered with options, and an activity whose write is guarded.
package temporal

import (
	"context"
	"database/sql"
	"net/smtp"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
)

type Activities struct{ DB *sql.DB }

func (a *Activities) SendReceipt(ctx context.Context, orderID string) error {
	return smtp.SendMail("localhost:25", nil, "shop@example.com", []string{"a@example.com"}, []byte(orderID)) // want `handler \(\*Activities\).SendReceipt: email sent with no deduplication \(\(\*Activities\).SendReceipt -> smtp.SendMail\); missing: key, enforcement`
}

func (a *Activities) MarkShipped(ctx context.Context, orderID string) error {
	_, err := a.DB.ExecContext(ctx, "UPDATE orders SET status = 'shipped' WHERE id = $1", orderID)
	return err
}

func (a *Activities) record(ctx context.Context, orderID string) error {
	_, err := a.DB.ExecContext(ctx, "INSERT INTO log (order_id) VALUES ($1)", orderID)
	return err
}

func Charge(ctx context.Context, db *sql.DB, orderID string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO charges (order_id) VALUES ($1)", orderID) // want `handler Charge: SQL write not safe to repeat: INSERT without conflict handling \(Charge -> \(\*sql.DB\).ExecContext\)`
	return err
}

func Register(w worker.Worker, db *sql.DB) {
	w.RegisterActivity(&Activities{DB: db})
	w.RegisterActivityWithOptions(Charge, activity.RegisterOptions{Name: "charge"})
}

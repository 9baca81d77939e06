// Package temporal exercises the Temporal model: a struct of activities registered whole, // want package:"has effects"
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

func (a *Activities) SendReceipt(ctx context.Context, orderID string) error { // want SendReceipt:`effects email.send:unprotected\(smtp.SendMail\)`
	return smtp.SendMail("localhost:25", nil, "shop@example.com", []string{"a@example.com"}, []byte(orderID)) // want `handler \(\*Activities\).SendReceipt: email sent with no deduplication \(\(\*Activities\).SendReceipt -> smtp.SendMail\); missing: key, enforcement`
}

func (a *Activities) MarkShipped(ctx context.Context, orderID string) error { // want MarkShipped:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := a.DB.ExecContext(ctx, "UPDATE orders SET status = 'shipped' WHERE id = $1", orderID)
	return err
}

func (a *Activities) record(ctx context.Context, orderID string) error { // want record:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := a.DB.ExecContext(ctx, "INSERT INTO log (order_id) VALUES ($1)", orderID)
	return err
}

func Charge(ctx context.Context, db *sql.DB, orderID string) error { // want Charge:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO charges (order_id) VALUES ($1)", orderID) // want `handler Charge: SQL write not safe to repeat: INSERT without conflict handling \(Charge -> \(\*sql.DB\).ExecContext\)`
	return err
}

func Register(w worker.Worker, db *sql.DB) { // want Register:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	w.RegisterActivity(&Activities{DB: db})
	w.RegisterActivityWithOptions(Charge, activity.RegisterOptions{Name: "charge"})
}

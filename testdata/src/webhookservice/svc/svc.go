// Package svc checks Stripe webhooks in service methods; the HTTP handlers that call them // want package:"has effects"
// are in another package (webhookservice/api).
package svc

import (
	"context"
	"database/sql"

	"github.com/stripe/stripe-go/v82/webhook"
)

var db *sql.DB

// Ledger records each event. Analysed package by package, this method stays a handler
// (nothing here shows who calls it); a program-wide run drops it for api's HTTP handler.
type Ledger struct{}

func (l *Ledger) Record(ctx context.Context, payload []byte, sig string) error { // want Record:`^effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\) checks\(github.com/stripe/stripe-go/v82\)$`
	ev, err := webhook.ConstructEvent(payload, sig, "whsec")
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "INSERT INTO ledger (event_id) VALUES ($1)", ev.ID) // want `handler \(\*Ledger\).Record: SQL write not safe to repeat`
	return err
}

// Verify only checks the signature; its callers record the event.
func Verify(payload []byte, sig string) (string, error) { // want Verify:`^checks\(github.com/stripe/stripe-go/v82\)$`
	ev, err := webhook.ConstructEvent(payload, sig, "whsec")
	return ev.ID, err
}

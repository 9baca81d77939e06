// Package api serves the webhooks whose signatures webhookservice/svc checks: its HTTP // want package:"has effects"
// handlers handle the deliveries Stripe retries.
package api

import (
	"database/sql"
	"io"
	"net/http"

	"webhookservice/svc"
)

var db *sql.DB

type API struct{ ledger *svc.Ledger }

func (a *API) Ledger(w http.ResponseWriter, r *http.Request) { // want Ledger:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	if err := a.ledger.Record(r.Context(), payload, r.Header.Get("Stripe-Signature")); err != nil { // want `handler \(\*API\).Ledger: SQL write not safe to repeat: INSERT without conflict handling \(\(\*API\).Ledger -> \(\*svc.Ledger\).Record -> \(\*sql.DB\).ExecContext\)`
		w.WriteHeader(http.StatusBadRequest)
	}
}

// Refund verifies through svc.Verify, then writes itself: its own INSERT is the handler's.
func Refund(w http.ResponseWriter, r *http.Request) { // want Refund:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	id, err := svc.Verify(payload, r.Header.Get("Stripe-Signature"))
	if err != nil {
		return
	}
	db.ExecContext(r.Context(), "INSERT INTO refunds (event_id) VALUES ($1)", id) // want `handler Refund: SQL write not safe to repeat`
}

// Health calls nothing that checks a webhook: no handler, though it writes.
func Health(w http.ResponseWriter, r *http.Request) { // want Health:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	db.ExecContext(r.Context(), "INSERT INTO pings (at) VALUES (now())")
}

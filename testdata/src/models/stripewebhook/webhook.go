// Package stripewebhook exercises the Stripe webhook model: a net/http handler that // want package:"has effects"
// verifies the signature is a handler of a delivery Stripe retries.
package stripewebhook

import (
	"database/sql"
	"io"
	"net/http"

	"github.com/stripe/stripe-go/v82/webhook"
)

var db *sql.DB

func Webhook(w http.ResponseWriter, r *http.Request) { // want Webhook:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	ev, err := webhook.ConstructEvent(payload, r.Header.Get("Stripe-Signature"), "whsec")
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if _, err := db.ExecContext(r.Context(), "INSERT INTO payments (event_id) VALUES ($1)", ev.ID); err != nil { // want `handler Webhook: SQL write not safe to repeat: INSERT without conflict handling \(Webhook -> \(\*sql.DB\).ExecContext\); missing: key, enforcement`
		w.WriteHeader(http.StatusInternalServerError)
	}
}

func WebhookDeduplicated(w http.ResponseWriter, r *http.Request) { // want WebhookDeduplicated:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	ev, err := webhook.ConstructEvent(payload, r.Header.Get("Stripe-Signature"), "whsec")
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if _, err := db.ExecContext(r.Context(), "INSERT INTO payments (event_id) VALUES ($1) ON CONFLICT (event_id) DO NOTHING", ev.ID); err != nil {
		w.WriteHeader(http.StatusInternalServerError)
	}
}

// Health verifies nothing: not a handler of retried deliveries.
func Health(w http.ResponseWriter, r *http.Request) { // want Health:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, _ = db.ExecContext(r.Context(), "INSERT INTO pings (at) VALUES (now())")
}

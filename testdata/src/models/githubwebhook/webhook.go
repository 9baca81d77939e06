// Package githubwebhook exercises the go-github model: a net/http handler that validates // want package:"has effects"
// the webhook signature is a handler of a delivery GitHub redelivers.
package githubwebhook

import (
	"database/sql"
	"net/http"

	"github.com/google/go-github/v75/github"
)

var db *sql.DB

func Webhook(w http.ResponseWriter, r *http.Request) { // want Webhook:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, err := github.ValidatePayload(r, []byte("secret"))
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	if _, err := db.ExecContext(r.Context(), "INSERT INTO pushes (payload) VALUES ($1)", payload); err != nil { // want `handler Webhook: SQL write not safe to repeat: INSERT without conflict handling \(Webhook -> \(\*sql.DB\).ExecContext\); missing: key, enforcement`
		w.WriteHeader(http.StatusInternalServerError)
	}
}

func WebhookDeduplicated(w http.ResponseWriter, r *http.Request) { // want WebhookDeduplicated:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	payload, err := github.ValidatePayload(r, []byte("secret"))
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	id := r.Header.Get("X-GitHub-Delivery")
	if _, err := db.ExecContext(r.Context(), "INSERT INTO pushes (delivery, payload) VALUES ($1, $2) ON CONFLICT (delivery) DO NOTHING", id, payload); err != nil {
		w.WriteHeader(http.StatusInternalServerError)
	}
}

// Health validates nothing: not a handler of redelivered webhooks.
func Health(w http.ResponseWriter, r *http.Request) { // want Health:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, _ = db.ExecContext(r.Context(), "INSERT INTO pings (at) VALUES (now())")
}

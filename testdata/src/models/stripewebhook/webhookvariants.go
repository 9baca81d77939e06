package stripewebhook

import (
	"io"
	"net/http"

	"github.com/stripe/stripe-go/v82/webhook"
)

// The other signature checks make their caller a handler as ConstructEvent does.
func WebhookIgnoringTolerance(w http.ResponseWriter, r *http.Request) { // want WebhookIgnoringTolerance:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	ev, err := webhook.ConstructEventIgnoringTolerance(payload, r.Header.Get("Stripe-Signature"), "whsec")
	if err != nil {
		return
	}
	_, _ = db.ExecContext(r.Context(), "INSERT INTO refunds (event_id) VALUES ($1)", ev.ID) // want `handler WebhookIgnoringTolerance: SQL write not safe to repeat: INSERT without conflict handling`
}

func WebhookWithOptions(w http.ResponseWriter, r *http.Request) { // want WebhookWithOptions:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	ev, err := webhook.ConstructEventWithOptions(payload, r.Header.Get("Stripe-Signature"), "whsec", webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true})
	if err != nil {
		return
	}
	_, _ = db.ExecContext(r.Context(), "INSERT INTO disputes (event_id) VALUES ($1)", ev.ID) // want `handler WebhookWithOptions: SQL write not safe to repeat: INSERT without conflict handling`
}

func WebhookWithTolerance(w http.ResponseWriter, r *http.Request) { // want WebhookWithTolerance:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	ev, err := webhook.ConstructEventWithTolerance(payload, r.Header.Get("Stripe-Signature"), "whsec", 0)
	if err != nil {
		return
	}
	_, _ = db.ExecContext(r.Context(), "INSERT INTO disputes (event_id) VALUES ($1) ON CONFLICT DO NOTHING", ev.ID)
}

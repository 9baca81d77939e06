// Package api serves the Stripe webhook.
package api

import (
	"io"
	"net/http"

	"webhooks/billing"
)

// API is the HTTP side.
type API struct{ Billing *billing.Service }

// Stripe handles the delivery Stripe retries.
func (a *API) Stripe(w http.ResponseWriter, r *http.Request) {
	payload, _ := io.ReadAll(r.Body)
	if err := a.Billing.Record(r.Context(), payload, r.Header.Get("Stripe-Signature")); err != nil {
		w.WriteHeader(http.StatusBadRequest)
	}
}

package stripewebhook

import (
	"context"
	"io"
	"net/http"

	"github.com/stripe/stripe-go/v82/webhook"
)

// Billing verifies the signature in a service method; the HTTP handler that calls it
// handles the delivery Stripe retries, and is the one handler (the service method is not).
type Billing struct{}

func (b *Billing) HandleEvent(ctx context.Context, payload []byte, sig string) error { // want HandleEvent:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	ev, err := webhook.ConstructEvent(payload, sig, "whsec")
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "INSERT INTO invoices (event_id) VALUES ($1)", ev.ID)
	return err
}

type Server struct{ billing *Billing }

func (s *Server) StripeWebhook(w http.ResponseWriter, r *http.Request) { // want StripeWebhook:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	payload, _ := io.ReadAll(r.Body)
	if err := s.billing.HandleEvent(r.Context(), payload, r.Header.Get("Stripe-Signature")); err != nil { // want `handler \(\*Server\).StripeWebhook: SQL write not safe to repeat: INSERT without conflict handling \(\(\*Server\).StripeWebhook -> \(\*stripewebhook.Billing\).HandleEvent -> \(\*sql.DB\).ExecContext\)`
		w.WriteHeader(http.StatusBadRequest)
	}
}

// Ledger's check is reached by no HTTP handler in view (its caller is in another
// package): the method itself stays the handler.
type Ledger struct{}

func (l *Ledger) Record(ctx context.Context, payload []byte, sig string) error { // want Record:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\) checks\(github.com/stripe/stripe-go/v82\)$`
	ev, err := webhook.ConstructEvent(payload, sig, "whsec")
	if err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "INSERT INTO ledger (event_id) VALUES ($1)", ev.ID) // want `handler \(\*Ledger\).Record: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

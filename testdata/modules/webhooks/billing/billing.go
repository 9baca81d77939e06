// Package billing checks Stripe webhooks in a service method; the HTTP handler that calls
// it is in another package (api).
package billing

import (
	"context"
	"database/sql"

	"github.com/stripe/stripe-go/v82/webhook"
)

// Service records events.
type Service struct{ DB *sql.DB }

// Record checks the signature, then records the event once per delivery.
func (s *Service) Record(ctx context.Context, payload []byte, sig string) error {
	ev, err := webhook.ConstructEvent(payload, sig, "whsec")
	if err != nil {
		return err
	}
	_, err = s.DB.ExecContext(ctx, "INSERT INTO ledger (event_id) VALUES ($1)", ev.ID)
	return err
}

// Replay is the twin: nothing in the program calls it from an HTTP handler (a command
// replays a file of events), so it stays the handler.
func (s *Service) Replay(ctx context.Context, payload []byte, sig string) error {
	ev, err := webhook.ConstructEvent(payload, sig, "whsec")
	if err != nil {
		return err
	}
	_, err = s.DB.ExecContext(ctx, "INSERT INTO replays (event_id) VALUES ($1)", ev.ID)
	return err
}

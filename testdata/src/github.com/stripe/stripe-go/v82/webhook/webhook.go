// Package webhook is a stub of github.com/stripe/stripe-go/v82/webhook
// v82.5.1 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package webhook

import stripe "github.com/stripe/stripe-go/v82"

// ConstructEvent verifies a webhook's signature and parses its event.
func ConstructEvent(payload []byte, header string, secret string) (stripe.Event, error) {
	panic("stub")
}

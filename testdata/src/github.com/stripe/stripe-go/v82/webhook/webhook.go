// Package webhook is a stub of github.com/stripe/stripe-go/v82/webhook
// v82.5.1 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package webhook

import (
	"time"

	stripe "github.com/stripe/stripe-go/v82"
)

// ConstructEvent verifies a webhook's signature and parses its event.
func ConstructEvent(payload []byte, header string, secret string) (stripe.Event, error) {
	panic("stub")
}

// ConstructEventIgnoringTolerance verifies a signature without checking the timestamp's age.
func ConstructEventIgnoringTolerance(payload []byte, header string, secret string) (stripe.Event, error) {
	panic("stub")
}

// ConstructEventWithTolerance verifies a signature with a given timestamp tolerance.
func ConstructEventWithTolerance(payload []byte, header string, secret string, tolerance time.Duration) (stripe.Event, error) {
	panic("stub")
}

// ConstructEventOptions configures ConstructEventWithOptions.
type ConstructEventOptions struct {
	Tolerance                time.Duration
	IgnoreTolerance          bool
	IgnoreAPIVersionMismatch bool
}

// ConstructEventWithOptions verifies a signature with options.
func ConstructEventWithOptions(payload []byte, header string, secret string, options ConstructEventOptions) (stripe.Event, error) {
	panic("stub")
}

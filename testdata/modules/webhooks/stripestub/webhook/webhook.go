// Package webhook is a stub of stripe-go's webhook signature check.
package webhook

import stripe "github.com/stripe/stripe-go/v82"

// ConstructEvent checks the payload's signature and decodes it.
func ConstructEvent(payload []byte, header string, secret string) (stripe.Event, error) {
	return stripe.Event{}, nil
}

// Package payout is a stub of github.com/stripe/stripe-go/v82/payout v82.5.1.
package payout

import stripe "github.com/stripe/stripe-go/v82"

// Client calls the payout API with its own key (value receivers, as in
// stripe-go).
type Client struct {
	Key string
}

// New creates a payout with stripe.Key.
func New(params *stripe.PayoutParams) (*stripe.Payout, error) { panic("stub") }

// New creates a payout.
func (c Client) New(params *stripe.PayoutParams) (*stripe.Payout, error) { panic("stub") }

// Package refund is a stub of github.com/stripe/stripe-go/v82/refund v82.5.1.
package refund

import stripe "github.com/stripe/stripe-go/v82"

// Client calls the refund API with its own key (value receivers, as in
// stripe-go).
type Client struct {
	Key string
}

// New creates a refund with stripe.Key.
func New(params *stripe.RefundParams) (*stripe.Refund, error) { panic("stub") }

// New creates a refund.
func (c Client) New(params *stripe.RefundParams) (*stripe.Refund, error) { panic("stub") }

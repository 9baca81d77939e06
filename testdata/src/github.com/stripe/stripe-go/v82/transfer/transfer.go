// Package transfer is a stub of github.com/stripe/stripe-go/v82/transfer
// v82.5.1.
package transfer

import stripe "github.com/stripe/stripe-go/v82"

// Client calls the transfer API with its own key (value receivers, as in
// stripe-go).
type Client struct {
	Key string
}

// New creates a transfer with stripe.Key.
func New(params *stripe.TransferParams) (*stripe.Transfer, error) { panic("stub") }

// New creates a transfer.
func (c Client) New(params *stripe.TransferParams) (*stripe.Transfer, error) { panic("stub") }

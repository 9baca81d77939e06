// Package charge is a stub of github.com/stripe/stripe-go/v82/charge v82.5.1.
package charge

import stripe "github.com/stripe/stripe-go/v82"

// Client calls the charge API with its own key (value receivers, as in
// stripe-go).
type Client struct {
	Key string
}

// New creates a charge with stripe.Key.
func New(params *stripe.ChargeParams) (*stripe.Charge, error) { panic("stub") }

// Capture captures a charge with stripe.Key.
func Capture(id string, params *stripe.ChargeCaptureParams) (*stripe.Charge, error) {
	panic("stub")
}

// New creates a charge.
func (c Client) New(params *stripe.ChargeParams) (*stripe.Charge, error) { panic("stub") }

// Capture captures a charge.
func (c Client) Capture(id string, params *stripe.ChargeCaptureParams) (*stripe.Charge, error) {
	panic("stub")
}

// Package paymentintent is a stub of
// github.com/stripe/stripe-go/v82/paymentintent v82.5.1: the package-level
// functions using stripe.Key, and the Client with the same methods.
package paymentintent

import stripe "github.com/stripe/stripe-go/v82"

// Client calls the payment intent API with its own key. Its methods have
// value receivers, as in stripe-go.
type Client struct {
	Key string
}

// New creates a payment intent.
func New(params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) { panic("stub") }

// Get retrieves a payment intent.
func Get(id string, params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Confirm confirms a payment intent.
func Confirm(id string, params *stripe.PaymentIntentConfirmParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Capture captures a payment intent.
func Capture(id string, params *stripe.PaymentIntentCaptureParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// New creates a payment intent.
func (c Client) New(params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Get retrieves a payment intent.
func (c Client) Get(id string, params *stripe.PaymentIntentParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Confirm confirms a payment intent.
func (c Client) Confirm(id string, params *stripe.PaymentIntentConfirmParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Capture captures a payment intent.
func (c Client) Capture(id string, params *stripe.PaymentIntentCaptureParams) (*stripe.PaymentIntent, error) {
	panic("stub")
}

// Package billing moves money through Stripe, using the stripe-go v82
// client returned by stripe.NewClient.
//
// Stripe deduplicates a POST that carries the same Idempotency-Key for 24
// hours, so a key derived from the order survives a job retry. Note that
// stripe-go fills in a fresh random key when none is set: that only covers
// the library's own network retries, not a redelivered job.
package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/stripe/stripe-go/v82"
)

// Client performs the shop's Stripe operations.
type Client struct {
	sc       *stripe.Client
	currency stripe.Currency
}

// New returns a Client that charges in USD through sc.
func New(sc *stripe.Client) *Client {
	return &Client{sc: sc, currency: stripe.CurrencyUSD}
}

// Charge creates the PaymentIntent that collects an order's total. The
// idempotency key is derived from the order ID, so a retried job gets the
// first attempt's PaymentIntent back instead of a second one. It returns the
// PaymentIntent ID.
func (c *Client) Charge(ctx context.Context, orderID string, amountCents int64) (string, error) {
	params := &stripe.PaymentIntentCreateParams{
		Amount:      stripe.Int64(amountCents),
		Currency:    stripe.String(c.currency),
		Description: stripe.String("Order " + orderID),
		AutomaticPaymentMethods: &stripe.PaymentIntentCreateAutomaticPaymentMethodsParams{
			Enabled: stripe.Bool(true),
		},
	}
	params.AddMetadata("order_id", orderID)
	params.SetIdempotencyKey("charge-" + orderID)

	pi, err := c.sc.V1PaymentIntents.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("billing: charge order %s: %w", orderID, err)
	}
	return pi.ID, nil
}

// Refund refunds a PaymentIntent in full. Its idempotency key is a new random
// UUID on every call, so a retried job is a new refund request to Stripe.
func (c *Client) Refund(ctx context.Context, paymentIntentID string) (string, error) {
	params := &stripe.RefundCreateParams{
		PaymentIntent: stripe.String(paymentIntentID),
		Reason:        stripe.String(stripe.RefundReasonRequestedByCustomer),
	}
	params.SetIdempotencyKey(uuid.NewString())

	r, err := c.sc.V1Refunds.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("billing: refund payment %s: %w", paymentIntentID, err)
	}
	return r.ID, nil
}

// Payout sends amountCents from a connected Stripe account's balance to the
// account holder's bank account. It sets no idempotency key.
func (c *Client) Payout(ctx context.Context, stripeAccount string, amountCents int64) (string, error) {
	params := &stripe.PayoutCreateParams{
		Amount:   stripe.Int64(amountCents),
		Currency: stripe.String(c.currency),
	}
	params.SetStripeAccount(stripeAccount)

	p, err := c.sc.V1Payouts.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("billing: payout to %s: %w", stripeAccount, err)
	}
	return p.ID, nil
}

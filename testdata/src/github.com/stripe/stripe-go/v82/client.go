package stripe

import "context"

// clientConfig is unexported in stripe-go too; ClientOption mentions it.
type clientConfig struct{}

// ClientOption configures NewClient.
type ClientOption func(*clientConfig)

// Client is the v82 client. Its services have unexported types, so a call
// such as sc.V1PaymentIntents.Create has the full name
// (github.com/stripe/stripe-go/v82.v1PaymentIntentService).Create.
type Client struct {
	V1Charges        *v1ChargeService
	V1PaymentIntents *v1PaymentIntentService
	V1Payouts        *v1PayoutService
	V1Refunds        *v1RefundService
	V1Transfers      *v1TransferService
}

// NewClient returns a client using key.
func NewClient(key string, opts ...ClientOption) *Client { panic("stub") }

// v1PaymentIntentService serves /v1/payment_intents. Its methods have value
// receivers, as in stripe-go.
type v1PaymentIntentService struct {
	Key string
}

// Create creates a payment intent.
func (c v1PaymentIntentService) Create(ctx context.Context, params *PaymentIntentCreateParams) (*PaymentIntent, error) {
	panic("stub")
}

// Confirm confirms a payment intent.
func (c v1PaymentIntentService) Confirm(ctx context.Context, id string, params *PaymentIntentConfirmParams) (*PaymentIntent, error) {
	panic("stub")
}

// Capture captures a payment intent.
func (c v1PaymentIntentService) Capture(ctx context.Context, id string, params *PaymentIntentCaptureParams) (*PaymentIntent, error) {
	panic("stub")
}

// v1RefundService serves /v1/refunds.
type v1RefundService struct {
	Key string
}

// Create creates a refund.
func (c v1RefundService) Create(ctx context.Context, params *RefundCreateParams) (*Refund, error) {
	panic("stub")
}

// v1ChargeService serves /v1/charges.
type v1ChargeService struct {
	Key string
}

// Create creates a charge.
func (c v1ChargeService) Create(ctx context.Context, params *ChargeCreateParams) (*Charge, error) {
	panic("stub")
}

// Capture captures a charge.
func (c v1ChargeService) Capture(ctx context.Context, id string, params *ChargeCaptureParams) (*Charge, error) {
	panic("stub")
}

// v1PayoutService serves /v1/payouts.
type v1PayoutService struct {
	Key string
}

// Create creates a payout.
func (c v1PayoutService) Create(ctx context.Context, params *PayoutCreateParams) (*Payout, error) {
	panic("stub")
}

// v1TransferService serves /v1/transfers.
type v1TransferService struct {
	Key string
}

// Create creates a transfer.
func (c v1TransferService) Create(ctx context.Context, params *TransferCreateParams) (*Transfer, error) {
	panic("stub")
}

package stripe

// PaymentIntentParams are the parameters of the paymentintent package's
// functions.
type PaymentIntentParams struct {
	Params
	Amount        *int64
	Currency      *string
	Customer      *string
	PaymentMethod *string
}

// PaymentIntentCreateParams are the parameters of
// Client.V1PaymentIntents.Create.
type PaymentIntentCreateParams struct {
	Params
	Amount        *int64
	Currency      *string
	Customer      *string
	PaymentMethod *string
}

// PaymentIntentConfirmParams are the parameters of a confirmation.
type PaymentIntentConfirmParams struct {
	Params
	PaymentMethod *string
}

// PaymentIntentCaptureParams are the parameters of a capture.
type PaymentIntentCaptureParams struct {
	Params
	AmountToCapture *int64
}

// PaymentIntent is a payment.
type PaymentIntent struct {
	ID       string
	Amount   int64
	Currency Currency
}

// RefundParams are the parameters of refund.New.
type RefundParams struct {
	Params
	Amount        *int64
	Charge        *string
	PaymentIntent *string
}

// RefundCreateParams are the parameters of Client.V1Refunds.Create.
type RefundCreateParams struct {
	Params
	Amount        *int64
	Charge        *string
	PaymentIntent *string
}

// Refund is a refund.
type Refund struct {
	ID     string
	Amount int64
}

// ChargeParams are the parameters of charge.New.
type ChargeParams struct {
	Params
	Amount   *int64
	Currency *string
	Customer *string
}

// ChargeCreateParams are the parameters of Client.V1Charges.Create.
type ChargeCreateParams struct {
	Params
	Amount   *int64
	Currency *string
	Customer *string
}

// ChargeCaptureParams are the parameters of a charge capture.
type ChargeCaptureParams struct {
	Params
	Amount *int64
}

// Charge is a charge.
type Charge struct {
	ID       string
	Amount   int64
	Currency Currency
}

// PayoutParams are the parameters of payout.New.
type PayoutParams struct {
	Params
	Amount      *int64
	Currency    *string
	Destination *string
}

// PayoutCreateParams are the parameters of Client.V1Payouts.Create.
type PayoutCreateParams struct {
	Params
	Amount      *int64
	Currency    *string
	Destination *string
}

// Payout is a payout.
type Payout struct {
	ID     string
	Amount int64
}

// TransferParams are the parameters of transfer.New.
type TransferParams struct {
	Params
	Amount      *int64
	Currency    *string
	Destination *string
}

// TransferCreateParams are the parameters of Client.V1Transfers.Create.
type TransferCreateParams struct {
	Params
	Amount      *int64
	Currency    *string
	Destination *string
}

// Transfer is a transfer.
type Transfer struct {
	ID     string
	Amount int64
}

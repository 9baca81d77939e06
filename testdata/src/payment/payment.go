// Package payment exercises the stripe-go payment sinks and their idempotency key. // want package:"has effects"
package payment

import (
	"context"
	"encoding/json"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
	"github.com/stripe/stripe-go/v82/payout"
	"github.com/stripe/stripe-go/v82/refund"
)

var sc = stripe.NewClient("sk_test")

func ChargeKeyed(ctx context.Context, t *asynq.Task) error { // want ChargeKeyed:`effects payment:protected\(paymentintent.New\)`
	params := &stripe.PaymentIntentParams{Amount: stripe.Int64(100)}
	params.SetIdempotencyKey("charge-" + t.Type())
	_, err := paymentintent.New(params)
	return err
}

func ChargeNoKey(ctx context.Context, t *asynq.Task) error { // want ChargeNoKey:`effects payment:unprotected\(paymentintent.New\)`
	_, err := paymentintent.New(&stripe.PaymentIntentParams{Amount: stripe.Int64(100)}) // want `handler ChargeNoKey: payment without an idempotency key \(ChargeNoKey -> paymentintent.New\); missing: key, enforcement`
	return err
}

func ChargeLiteralKey(ctx context.Context, t *asynq.Task) error { // want ChargeLiteralKey:`effects payment:protected\(paymentintent.New\)`
	_, err := paymentintent.New(&stripe.PaymentIntentParams{Params: stripe.Params{IdempotencyKey: stripe.String(t.Type())}})
	return err
}

func RefundRandom(ctx context.Context, t *asynq.Task) error { // want RefundRandom:`effects payment:unstable-key\(refund.New\)`
	params := &stripe.RefundParams{}
	params.IdempotencyKey = stripe.String(stripe.NewIdempotencyKey())
	_, err := refund.New(params) // want `handler RefundRandom: payment with a key that changes on every retry \(made from stripe.NewIdempotencyKey\) \(RefundRandom -> refund.New\); missing: key$`
	return err
}

func ClientService(ctx context.Context, t *asynq.Task) error { // want ClientService:`effects payment:unstable-key\(\(stripe.v1PaymentIntentService\).Create\)`
	params := &stripe.PaymentIntentCreateParams{}
	params.SetIdempotencyKey(uuid.New().String())
	_, err := sc.V1PaymentIntents.Create(ctx, params) // want `handler ClientService: payment with a key that changes on every retry \(made from uuid.New\) \(ClientService -> \(stripe.v1PaymentIntentService\).Create\)`
	return err
}

func Payout(ctx context.Context, t *asynq.Task) error { // want Payout:`effects payment:unprotected\(payout.New\)`
	_, err := payout.New(&stripe.PayoutParams{}) // want `handler Payout: payment without an idempotency key`
	return err
}

func ConstantKey(ctx context.Context, t *asynq.Task) error { // want ConstantKey:`effects payment:unstable-key\(paymentintent.New\)`
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey("monthly-charge")
	_, err := paymentintent.New(params) // want `handler ConstantKey: payment with a constant key: every job shares it.*; missing: key$`
	return err
}

var merchantPrefix = "acme"

// A key built only from configuration is the same for every job.
func ConfigKey(ctx context.Context, t *asynq.Task) error { // want ConfigKey:`effects payment:unstable-key\(paymentintent.New\)`
	params := &stripe.PaymentIntentParams{}
	params.SetIdempotencyKey(merchantPrefix + "-monthly")
	_, err := paymentintent.New(params) // want `handler ConfigKey: payment with a key made from nothing the job carries \(no parameter of ConfigKey reaches it\).*; missing: key$`
	return err
}

// A helper receives the job's order ID as a parameter: the key comes from the job.
func chargeOrder(orderID string) error {
	params := &stripe.PaymentIntentParams{}
	key := "charge-" + orderID
	params.SetIdempotencyKey(key)
	_, err := paymentintent.New(params)
	return err
}

func HelperKey(ctx context.Context, t *asynq.Task) error { // want HelperKey:`effects payment:protected\(paymentintent.New\)`
	return chargeOrder(t.Type())
}

// The helper's key is only as stable as what each caller passes: checked at the call,
// through a second helper that hands its own parameter on.
func HelperRandomKey(ctx context.Context, t *asynq.Task) error { // want HelperRandomKey:`effects payment:unstable-key\(paymentintent.New\)`
	return chargeOrder(uuid.NewString()) // want `handler HelperRandomKey: payment with an idempotency key, but the key passed to payment.chargeOrder changes on every retry \(made from uuid.NewString\) \(HelperRandomKey -> payment.chargeOrder -> paymentintent.New\); missing: key$`
}

func chargeTwice(prefix, orderID string) error {
	return chargeOrder(prefix + orderID)
}

func HelperChainKey(ctx context.Context, t *asynq.Task) error { // want HelperChainKey:`effects payment:protected\(paymentintent.New\)`
	return chargeTwice("refund-", t.Type())
}

func HelperChainConstant(ctx context.Context, t *asynq.Task) error { // want HelperChainConstant:`effects payment:unstable-key\(paymentintent.New\)`
	return chargeTwice("refund-", "all") // want `handler HelperChainConstant: payment with an idempotency key, but the key passed to payment.chargeTwice is a constant.*; missing: key$`
}

type orderPayload struct{ OrderID string }

// A payload decoded into a local variable is the job's: json.Unmarshal fills it from the task.
func HelperDecodedKey(ctx context.Context, t *asynq.Task) error { // want HelperDecodedKey:`effects payment:protected\(paymentintent.New\)`
	var p orderPayload
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	return chargeOrder(p.OrderID)
}

// Filled from something the job does not carry: the key is the same for every job.
func HelperFilledFromConfig(ctx context.Context, t *asynq.Task) error { // want HelperFilledFromConfig:`effects payment:unstable-key\(paymentintent.New\)`
	var p orderPayload
	if err := json.Unmarshal(defaultOrder, &p); err != nil {
		return err
	}
	return chargeOrder(p.OrderID) // want `handler HelperFilledFromConfig: payment with an idempotency key, but the key passed to payment.chargeOrder is made from nothing the job carries`
}

var defaultOrder = []byte(`{"OrderID":"default"}`)

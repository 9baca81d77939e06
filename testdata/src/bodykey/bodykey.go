// Package bodykey holds Temporal-style activities that call an internal API taking its // want package:"has effects"
// idempotency key in the JSON body (a ChargeInput with an IdempotencyKey field, set by the
// workflow): the key is judged as a header's would be.
package bodykey

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/google/uuid"
	"go.temporal.io/sdk/worker"
)

type ChargeInput struct {
	CustomerID     string `json:"customerId"`
	Amount         int    `json:"amount"`
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
}

type RefundInput struct {
	OrderID string `json:"orderId"`
	Key     string `json:"idempotency_key"`
}

type NoteInput struct {
	OrderID string `json:"orderId"`
}

type Activities struct{ BillingURL string }

// Charge hands its input on whole: the key its workflow set travels with it.
func (a *Activities) Charge(ctx context.Context, input *ChargeInput) error { // want Charge:`effects http.write:protected\(\(\*http.Client\).Do\)`
	body, err := json.Marshal(input)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.BillingURL+"/charge", bytes.NewReader(body))
	if err != nil {
		return err
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

// Refund builds the body with a key of the job's order (the JSON name says it is one).
func (a *Activities) Refund(ctx context.Context, orderID string) error { // want Refund:`effects http.write:protected\(\(\*http.Client\).Do\)`
	body, _ := json.Marshal(RefundInput{OrderID: orderID, Key: "refund-" + orderID})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.BillingURL+"/refunds", bytes.NewReader(body))
	_, err := http.DefaultClient.Do(req)
	return err
}

// RefundFresh sends a new key on every run: a repeat is a new refund.
func (a *Activities) RefundFresh(ctx context.Context, orderID string) error { // want RefundFresh:`effects http.write:unstable-key\(\(\*http.Client\).Do\)`
	body, _ := json.Marshal(RefundInput{OrderID: orderID, Key: uuid.NewString()})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.BillingURL+"/refunds", bytes.NewReader(body))
	_, err := http.DefaultClient.Do(req) // want `^handler \(\*Activities\).RefundFresh: idempotency key in its body \(RefundInput.Key\) changes on every retry \(made from uuid.NewString\)`
	return err
}

// Note's body has no key field: reported.
func (a *Activities) Note(ctx context.Context, orderID string) error { // want Note:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	body, _ := json.Marshal(NoteInput{OrderID: orderID})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, a.BillingURL+"/notes", bytes.NewReader(body))
	_, err := http.DefaultClient.Do(req) // want `^handler \(\*Activities\).Note: HTTP POST without an Idempotency-Key header \(\(\*Activities\).Note -> \(\*http.Client\).Do\); missing: key, enforcement$`
	return err
}

// Register makes every exported method of Activities an activity.
func Register(w worker.Worker) {
	w.RegisterActivity(&Activities{})
}

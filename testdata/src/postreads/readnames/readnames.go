// Package readnames holds POSTs made through functions whose name says they read: a // want package:"has effects"
// provider's QueryPayment, a helper that fetches segments by a lookup body; and twins named
// for a write, or reaching a function named for one.
package readnames

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/hibiken/asynq"

	"postreads/readnames/provider"
)

var pay = &provider.Client{}

// PaymentTimeout asks the provider for the payment's state before closing the order:
// QueryPayment reads.
func PaymentTimeout(ctx context.Context, t *asynq.Task) error { // want PaymentTimeout:`effects http.write:protected\(\(\*http.Client\).Do\)`
	return pay.QueryPayment(ctx, string(t.Payload()))
}

// Refund refunds the payment through the same envelope: reported.
func Refund(ctx context.Context, t *asynq.Task) error { // want Refund:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return pay.CreateRefund(ctx, string(t.Payload())) // want `handler Refund: HTTP POST without an Idempotency-Key header`
}

// Customer gets or creates the customer: a conjunction of two acts is not a read.
func Customer(ctx context.Context, t *asynq.Task) error { // want Customer:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return pay.GetOrCreateCustomer(ctx, string(t.Payload())) // want `handler Customer: HTTP POST without an Idempotency-Key header`
}

// Payout gets a payout link that a callee named for a write makes: reported.
func Payout(ctx context.Context, t *asynq.Task) error { // want Payout:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return pay.GetPayoutLink(ctx, string(t.Payload())) // want `handler Payout: HTTP POST without an Idempotency-Key header`
}

type lookup struct {
	TMDB     int   `json:"tmdb_id"`
	Duration int64 `json:"duration_ms"`
}

// fetchSegments looks segments up by posting the ids to look up.
func fetchSegments(ctx context.Context, id int) ([]byte, error) {
	body, _ := json.Marshal([]lookup{{TMDB: id}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://segments.example.com/v1/movies", bytes.NewReader(body))
	return do(req)
}

// storeSegments sends segments to the same service to be kept.
func storeSegments(ctx context.Context, id int) ([]byte, error) {
	body, _ := json.Marshal([]lookup{{TMDB: id}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://segments.example.com/v1/movies", bytes.NewReader(body))
	return do(req)
}

func do(req *http.Request) ([]byte, error) {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return nil, nil
}

// Segments fetches a movie's segments: fetchSegments reads.
func Segments(ctx context.Context, t *asynq.Task) error { // want Segments:`effects http.write:protected\(\(\*http.Client\).Do\)`
	_, err := fetchSegments(ctx, len(t.Payload()))
	return err
}

// ShareSegments stores them: reported.
func ShareSegments(ctx context.Context, t *asynq.Task) error { // want ShareSegments:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	_, err := storeSegments(ctx, len(t.Payload())) // want `handler ShareSegments: HTTP POST without an Idempotency-Key header`
	return err
}

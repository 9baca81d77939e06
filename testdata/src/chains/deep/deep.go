// Package deep exercises a chain longer than a fact keeps: its first hops and its sink are // want package:"has effects"
// shown, with a mark where the calls between them were left out, never a call that is not
// made.
package deep

import (
	"context"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

func step1(ctx context.Context, id string) error { return step2(ctx, id) }
func step2(ctx context.Context, id string) error { return step3(ctx, id) }
func step3(ctx context.Context, id string) error { return step4(ctx, id) }
func step4(ctx context.Context, id string) error { return step5(ctx, id) }
func step5(ctx context.Context, id string) error { return step6(ctx, id) }
func step6(ctx context.Context, id string) error { return post(ctx, id) }

func post(ctx context.Context, id string) error {
	_, err := http.Post("https://partner.example.com/v1/orders", "application/json", strings.NewReader(id))
	return err
}

// Deep reaches the POST seven calls down: the chain shows the first five, then "...".
func Deep(ctx context.Context, t *asynq.Task) error { // want Deep:`effects http.write:unprotected\(http.Post\)`
	return step1(ctx, string(t.Payload())) // want `^handler Deep: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(Deep -> deep.step1 -> deep.step2 -> deep.step3 -> deep.step4 -> deep.step5 -> \.\.\. -> http.Post\); missing: key, enforcement$`
}

// Shallow reaches another POST four calls down: the whole chain.
func Shallow(ctx context.Context, t *asynq.Task) error { // want Shallow:`effects http.write:unprotected\(http.Post\)`
	return near1(ctx, string(t.Payload())) // want `^handler Shallow: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(Shallow -> deep.near1 -> deep.near2 -> deep.near3 -> http.Post\); missing: key, enforcement$`
}

func near1(ctx context.Context, id string) error { return near2(ctx, id) }
func near2(ctx context.Context, id string) error { return near3(ctx, id) }

func near3(ctx context.Context, id string) error {
	_, err := http.Post("https://partner.example.com/v1/refunds", "application/json", strings.NewReader(id))
	return err
}

// Package resty exercises the resty model: a POST built with client.R() is guarded by an // want package:"has effects"
// Idempotency-Key header set in its chain with a stable value, and only by that header.
package resty

import (
	"context"

	"github.com/go-resty/resty/v2"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var client = resty.New()

const hook = "https://hooks.example.com/orders"

// Content-Type is a header, but not an idempotency one.
func PostPlain(ctx context.Context, t *asynq.Task) error { // want PostPlain:`effects http.write:unprotected\(\(\*resty.Request\).Post\)`
	_, err := client.R().SetContext(ctx).SetHeader("Content-Type", "application/json").SetBody(t.Payload()).Post(hook) // want `handler PostPlain: HTTP POST without an Idempotency-Key header \(PostPlain -> \(\*resty.Request\).Post\); missing: key, enforcement`
	return err
}

func PostKeyed(ctx context.Context, t *asynq.Task) error { // want PostKeyed:`effects http.write:protected\(\(\*resty.Request\).Post\)`
	_, err := client.R().SetHeader("Content-Type", "application/json").SetHeader("Idempotency-Key", "order-"+t.Type()).SetBody(t.Payload()).Post(hook)
	return err
}

// The header set on the request variable in a statement of its own; the name is matched
// without regard to case.
func PatchKeyedVar(ctx context.Context, t *asynq.Task) error { // want PatchKeyedVar:`effects http.write:protected\(\(\*resty.Request\).Patch\)`
	req := client.R().SetBody(t.Payload())
	req.SetHeader("idempotency-key", "order-"+t.Type())
	_, err := req.Patch(hook)
	return err
}

func PostHeadersMap(ctx context.Context, t *asynq.Task) error { // want PostHeadersMap:`effects http.write:protected\(\(\*resty.Request\).Post\)`
	_, err := client.R().SetHeaders(map[string]string{"Content-Type": "application/json", "X-Idempotency-Key": t.Type()}).Post(hook)
	return err
}

func PostHeadersMapNoKey(ctx context.Context, t *asynq.Task) error { // want PostHeadersMapNoKey:`effects http.write:unprotected\(\(\*resty.Request\).Post\)`
	h := map[string]string{"Content-Type": "application/json"}
	_, err := client.R().SetHeaders(h).Post(hook) // want `handler PostHeadersMapNoKey: HTTP POST without an Idempotency-Key header`
	return err
}

func PostRandomKey(ctx context.Context, t *asynq.Task) error { // want PostRandomKey:`effects http.write:unstable-key\(\(\*resty.Request\).Post\)`
	_, err := client.R().SetHeader("Idempotency-Key", uuid.NewString()).Post(hook) // want `handler PostRandomKey: Idempotency-Key header changes on every retry \(made from uuid.NewString\)`
	return err
}

func PostConstantKey(ctx context.Context, t *asynq.Task) error { // want PostConstantKey:`effects http.write:unstable-key\(\(\*resty.Request\).Post\)`
	_, err := client.R().SetHeader("Idempotency-Key", "orders").Post(hook) // want `handler PostConstantKey: Idempotency-Key header is a constant`
	return err
}

func ExecutePost(ctx context.Context, t *asynq.Task) error { // want ExecutePost:`effects http.write:unprotected\(\(\*resty.Request\).Execute\)`
	_, err := client.R().SetBody(t.Payload()).Execute("POST", hook) // want `handler ExecutePost: HTTP POST without an Idempotency-Key header \(ExecutePost -> \(\*resty.Request\).Execute\)`
	return err
}

// GET and PUT are idempotent: not effects.
func ExecuteGetAndPut(ctx context.Context, t *asynq.Task) error {
	if _, err := client.R().Execute("GET", hook); err != nil {
		return err
	}
	_, err := client.R().SetBody(t.Payload()).Put(hook)
	return err
}

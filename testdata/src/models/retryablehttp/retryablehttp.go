// Package retryablehttp exercises the go-retryablehttp model: Post cannot carry an // want package:"has effects"
// Idempotency-Key header; the standard client built from it is net/http's Do.
package retryablehttp

import (
	"context"
	"net/http"
	"strings"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hibiken/asynq"
)

var client = retryablehttp.NewClient()

func Notify(ctx context.Context, t *asynq.Task) error { // want Notify:`effects http.write:unprotected\(\(\*retryablehttp.Client\).Post\)`
	resp, err := client.Post("https://hooks.example.com/orders", "application/json", t.Payload()) // want `handler Notify: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(Notify -> \(\*retryablehttp.Client\).Post\); missing: key, enforcement`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func NotifyKeyed(ctx context.Context, t *asynq.Task) error { // want NotifyKeyed:`effects http.write:protected\(\(\*http.Client\).Do\)`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://hooks.example.com/orders", strings.NewReader(string(t.Payload())))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", "order-"+t.Type())
	resp, err := client.StandardClient().Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Package deliveryid sends webhooks whose delivery id header is their key, as the Standard // want package:"has effects"
// Webhooks webhook-id is: a receiver deduplicates on it.
package deliveryid

import (
	"bytes"
	"context"
	"net/http"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

type delivery struct {
	ID  string
	URL string
}

func load(t *asynq.Task) delivery {
	return delivery{ID: string(t.Payload()), URL: "https://hooks.example.com"}
}

// Deliver posts a stored delivery with its id in an application's own header: a receiver
// (a chat platform's incoming webhook) need not know it, and a repeat posts again.
func Deliver(ctx context.Context, t *asynq.Task) error { // want Deliver:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	d := load(t)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(t.Payload()))
	req.Header.Set("X-Forge-Delivery-ID", d.ID)
	_, err := http.DefaultClient.Do(req) // want `handler Deliver: HTTP POST without an Idempotency-Key header`
	return err
}

// DeliverStandard uses the Standard Webhooks header.
func DeliverStandard(ctx context.Context, t *asynq.Task) error { // want DeliverStandard:`effects http.write:protected\(\(\*http.Client\).Do\)`
	d := load(t)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(t.Payload()))
	req.Header.Set("webhook-id", d.ID)
	_, err := http.DefaultClient.Do(req)
	return err
}

// DeliverFresh names each attempt anew: a receiver sees two deliveries.
func DeliverFresh(ctx context.Context, t *asynq.Task) error { // want DeliverFresh:`effects http.write:unstable-key\(\(\*http.Client\).Do\)`
	d := load(t)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(t.Payload()))
	req.Header.Set("svix-id", uuid.NewString())
	_, err := http.DefaultClient.Do(req) // want `handler DeliverFresh: delivery id header svix-id`
	return err
}

// DeliverTraced sets only a request id: no key.
func DeliverTraced(ctx context.Context, t *asynq.Task) error { // want DeliverTraced:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	d := load(t)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(t.Payload()))
	req.Header.Set("X-Request-ID", d.ID)
	_, err := http.DefaultClient.Do(req) // want `handler DeliverTraced: HTTP POST without an Idempotency-Key header`
	return err
}

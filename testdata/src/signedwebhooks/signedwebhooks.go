// Package signedwebhooks holds webhook deliveries to a service's customers. A request // want package:"has effects"
// signed for its receiver (an HMAC of the body in a signature header) that names its
// delivery in the sender's own header is keyed by that id, whether the headers are set one
// by one or ranged over from a map: its receivers verify the signature by the sender's
// documentation and deduplicate on the id there. An unsigned request's own delivery header
// (an alert to a chat platform), a delivery id made anew on every attempt, and a signed
// request that names no delivery stay reported.
package signedwebhooks

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var secret = []byte("k")

func sign(body string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(body))
	return hex.EncodeToString(m.Sum(nil))
}

// delivery is a stored webhook delivery.
type delivery struct {
	ID, URL, Payload string
}

func load(id string) delivery {
	return delivery{ID: id, URL: "https://hooks.example.com/" + id, Payload: "{}"}
}

// deliver sets its delivery and signature headers one by one.
func deliver(ctx context.Context, t *asynq.Task) error {
	d := load(string(t.Payload()))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, strings.NewReader(d.Payload))
	if err != nil {
		return err
	}
	req.Header.Set("X-Forge-Delivery-ID", d.ID)
	req.Header.Set("X-Forge-Signature-SHA256", sign(d.Payload))
	_, err = http.DefaultClient.Do(req)
	return err
}

// deliverMapped ranges over a map of its headers, the signature added after.
func deliverMapped(ctx context.Context, t *asynq.Task) error {
	d := load(string(t.Payload()))
	headers := map[string]string{
		"Content-Type": "application/json",
		"X-Webhook-Id": d.ID,
	}
	headers["X-Webhook-Signature"] = "sha256=" + sign(d.Payload)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, strings.NewReader(d.Payload))
	if err != nil {
		return err
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	_, err = http.DefaultClient.Do(req)
	return err
}

// alert posts to a chat platform's incoming webhook, unsigned.
func alert(ctx context.Context, t *asynq.Task) error {
	d := load(string(t.Payload()))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, strings.NewReader(d.Payload))
	if err != nil {
		return err
	}
	req.Header.Set("X-PayGate-Alert-Delivery-Id", d.ID)
	_, err = http.DefaultClient.Do(req) // want `handler alert: HTTP POST without an Idempotency-Key header`
	return err
}

// deliverFresh names each attempt anew.
func deliverFresh(ctx context.Context, t *asynq.Task) error {
	d := load(string(t.Payload()))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, strings.NewReader(d.Payload))
	if err != nil {
		return err
	}
	req.Header.Set("X-Forge-Delivery-ID", uuid.NewString())
	req.Header.Set("X-Forge-Signature-SHA256", sign(d.Payload))
	_, err = http.DefaultClient.Do(req) // want `handler deliverFresh: signed delivery id header X-Forge-Delivery-ID`
	return err
}

// deliverUnnamed signs a request that names no delivery.
func deliverUnnamed(ctx context.Context, t *asynq.Task) error {
	d := load(string(t.Payload()))
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, strings.NewReader(d.Payload))
	if err != nil {
		return err
	}
	req.Header.Set("X-Request-ID", d.ID)
	req.Header.Set("X-Forge-Signature-SHA256", sign(d.Payload))
	_, err = http.DefaultClient.Do(req) // want `handler deliverUnnamed: HTTP POST without an Idempotency-Key header`
	return err
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("webhook:deliver", deliver)
	mux.HandleFunc("webhook:mapped", deliverMapped)
	mux.HandleFunc("alert:notify", alert)
	mux.HandleFunc("webhook:fresh", deliverFresh)
	mux.HandleFunc("webhook:unnamed", deliverUnnamed)
}

// Package idgen holds asynq handlers whose Idempotency-Key comes from an id generator // want package:"has effects"
// other than uuid's: rs/xid makes a new id on every call, so a retry sends a new key; an
// id parsed from the task is the same on every run.
package idgen

import (
	"context"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/rs/xid"
)

// Charge keys the request by a fresh xid: a retry is a new charge.
func Charge(ctx context.Context, t *asynq.Task) error { // want Charge:`effects http.write:unstable-key\(\(\*http.Client\).Do\)`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example.com/charges", strings.NewReader(string(t.Payload())))
	req.Header.Set("Idempotency-Key", xid.New().String())
	_, err := http.DefaultClient.Do(req) // want `^handler Charge: Idempotency-Key header changes on every retry \(made from xid.New\)`
	return err
}

// Refund keys the request by the xid the task carries: the same on every run.
func Refund(ctx context.Context, t *asynq.Task) error { // want Refund:`effects http.write:protected\(\(\*http.Client\).Do\)`
	id, err := xid.FromString(string(t.Payload()))
	if err != nil {
		return err
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example.com/refunds", nil)
	req.Header.Set("Idempotency-Key", "refund-"+id.String())
	_, err = http.DefaultClient.Do(req)
	return err
}

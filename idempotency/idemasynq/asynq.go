// Package idemasynq runs asynq task handlers under the idempotency middleware.
//
//	mw, err := idemasynq.New(idemasynq.PayloadKey(func(p ChargePayload) string { return p.PaymentAttemptID }),
//		idempotency.WithStore(store), idempotency.WithRetention(72*time.Hour),
//		idempotency.WithFingerprint(idemasynq.PayloadFingerprint))
//	mux.Use(mw)
//
// A duplicate of a completed task is acknowledged. A duplicate of a running task fails with a
// retryable error, so asynq delivers it again later (it counts as a retry). Errors that
// retrying cannot fix (complete_conflict, fingerprint_mismatch, an empty key) are marked
// asynq.SkipRetry, so the task goes to the archive for a person to look at.
package idemasynq

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/hibiken/asynq"
)

// New builds the middleware and returns it as asynq middleware for ServeMux.Use.
func New(key idempotency.KeyFunc[*asynq.Task], opts ...idempotency.Option) (asynq.MiddlewareFunc, error) {
	mw, err := idempotency.New(key, opts...)
	if err != nil {
		return nil, err
	}
	return Middleware(mw), nil
}

// Middleware returns asynq middleware that runs every task through mw.
func Middleware(mw *idempotency.Middleware[*asynq.Task]) asynq.MiddlewareFunc {
	return func(next asynq.Handler) asynq.Handler { return Handler(mw, next) }
}

// Handler wraps one handler, for ServeMux.Handle when only some task types need protection.
func Handler(mw *idempotency.Middleware[*asynq.Task], next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		return asynqError(mw.Handle(ctx, t, next.ProcessTask))
	})
}

// asynqError marks the errors that must not be retried.
func asynqError(err error) error {
	if err != nil && idempotency.IsPermanent(err) {
		return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
	}
	return err
}

// PayloadKey derives the key from the task's JSON payload, decoded into P, prefixed with the
// task type so that two task types never share a key. An empty key stays empty, for the
// middleware's empty-key policy; a payload that does not decode fails the delivery.
func PayloadKey[P any](key func(payload P) string) idempotency.KeyFunc[*asynq.Task] {
	return func(t *asynq.Task) (string, error) {
		var p P
		if err := json.Unmarshal(t.Payload(), &p); err != nil {
			return "", fmt.Errorf("idemasynq: decoding the %s payload: %w", t.Type(), err)
		}
		k := key(p)
		if k == "" {
			return "", nil
		}
		return t.Type() + ":" + k, nil
	}
}

// PayloadFingerprint is a fingerprint function (idempotency.WithFingerprint) over the task's
// type and payload.
func PayloadFingerprint(t *asynq.Task) ([]byte, error) {
	return append([]byte(t.Type()+"\x00"), t.Payload()...), nil
}

// Package idemasynq runs asynq task handlers under the idempotency middleware.
//
//	mw, err := idemasynq.New("payment:charge",
//		idemasynq.PayloadKey(func(p ChargePayload) string { return p.PaymentAttemptID }),
//		idempotency.WithStore(store), idempotency.WithRetention(72*time.Hour),
//		idempotency.WithFingerprint(idemasynq.PayloadFingerprint))
//	mux.Use(idemasynq.RequeueDeferred(client), mw) // tasks of other types pass through untouched
//	cfg := asynq.Config{...}
//	idemasynq.Configure(&cfg) // deferred duplicates follow RetryAfter and spend no retry
//
// A middleware is scoped to the task types it has a key for: installed for the whole mux,
// it runs tasks of any other type straight through, so a key function that decodes one
// type's payload never sees another's. A duplicate of a completed task is acknowledged. A
// duplicate of a running task fails with a retryable *idempotency.InProgressError; with
// Configure, asynq delivers it again after its RetryAfter and does not count it as a failed
// attempt. asynq archives a task whose retries are spent without asking IsFailure, so a
// duplicate deferred on its last attempt (MaxRetry(0), or retries used up by real failures)
// would be archived, and lost if the worker holding its key crashed: RequeueDeferred hands
// such a deferral to a copy of the task instead. Errors that retrying cannot fix
// (complete_conflict, fingerprint_mismatch, an empty key, a key function that fails) are
// marked asynq.SkipRetry, so the task goes to the archive for a person to look at.
//
// A handler that asks for manual review (idempotency.NeedsReview) fails its task with
// asynq.SkipRetry too, and its key is marked failed. A later task of that key is not run and
// also fails with asynq.SkipRetry (an error matching idempotency.ErrNeedsReview), rather than
// succeeding: asynq retries neither, and both wait in the archive beside each other for the
// reviewer, who lets the key run again with the store's Retry (or Forget) and then runs the
// archived task.
package idemasynq

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/hibiken/asynq"
)

// New builds the middleware for tasks of taskType and returns it as asynq middleware for
// ServeMux.Use. Its keys are namespaced by taskType unless the options name it otherwise
// (idempotency.WithName).
func New(taskType string, key idempotency.KeyFunc[*asynq.Task], opts ...idempotency.Option) (asynq.MiddlewareFunc, error) {
	if taskType == "" {
		return nil, errors.New("idemasynq: New: empty task type")
	}
	mw, err := idempotency.New(key, append([]idempotency.Option{idempotency.WithName(taskType)}, opts...)...)
	if err != nil {
		return nil, err
	}
	return Middleware(mw, taskType), nil
}

// Middleware returns asynq middleware that runs tasks of the given types through mw and
// every other task straight to the next handler.
func Middleware(mw *idempotency.Middleware[*asynq.Task], taskType string, more ...string) asynq.MiddlewareFunc {
	types := append([]string{taskType}, more...)
	return func(next asynq.Handler) asynq.Handler {
		protected := Handler(mw, next)
		return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
			if !slices.Contains(types, t.Type()) {
				return next.ProcessTask(ctx, t)
			}
			return protected.ProcessTask(ctx, t)
		})
	}
}

// Handler wraps one handler, for ServeMux.Handle: the mux already sends it one task type.
func Handler(mw *idempotency.Middleware[*asynq.Task], next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		out, err := mw.HandleOutcome(ctx, t, next.ProcessTask)
		if out == idempotency.OutcomeNeedsReviewDuplicate && err == nil {
			err = errNeedsReview
		}
		return asynqError(err)
	})
}

// errNeedsReview fails a task whose key awaits manual review, when the middleware does not
// replay the failure (idempotency.WithNeedsReviewReplay).
var errNeedsReview = fmt.Errorf("idemasynq: the task was not run: %w", idempotency.ErrNeedsReview)

// asynqError marks the errors that must not be retried.
func asynqError(err error) error {
	if err != nil && idempotency.IsPermanent(err) {
		return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
	}
	return err
}

// Configure sets the server configuration's retry hooks so that a deferred duplicate (an
// *idempotency.InProgressError) is delivered again after its RetryAfter and is not counted
// as a failure, which would use up the task's retries and archive it. Other errors keep the
// configuration's own RetryDelayFunc and IsFailure (asynq's defaults when unset).
func Configure(cfg *asynq.Config) {
	cfg.RetryDelayFunc = RetryDelay(cfg.RetryDelayFunc)
	cfg.IsFailure = IsFailure(cfg.IsFailure)
}

// minRetryDelay keeps a duplicate that meets a lease about to end from coming straight back.
// asynq schedules retries in whole seconds, so a shorter delay would not be kept anyway.
const minRetryDelay = time.Second

// RetryDelay returns an asynq.RetryDelayFunc that delays a deferred duplicate by its
// RetryAfter (at least a second: asynq schedules retries in whole seconds, rounding down) and
// other failures as fallback does (asynq's default when nil).
func RetryDelay(fallback asynq.RetryDelayFunc) asynq.RetryDelayFunc {
	if fallback == nil {
		fallback = asynq.DefaultRetryDelayFunc
	}
	return func(n int, err error, t *asynq.Task) time.Duration {
		var ip *idempotency.InProgressError
		if errors.As(err, &ip) {
			return max(ip.RetryAfter, minRetryDelay)
		}
		return fallback(n, err, t)
	}
}

// IsFailure returns a function for asynq.Config.IsFailure that does not count a deferred
// duplicate as a failure, and asks fallback about other errors (every error when nil).
func IsFailure(fallback func(error) bool) func(error) bool {
	return func(err error) bool {
		if errors.Is(err, idempotency.ErrInProgress) {
			return false
		}
		if fallback == nil {
			return err != nil
		}
		return fallback(err)
	}
}

// PayloadKey derives the key from the task's JSON payload, decoded into P, prefixed with the
// task type. An empty key is left to the middleware's empty-key policy; a payload that does
// not decode fails the delivery with a permanent *idempotency.KeyError.
func PayloadKey[P any](key func(payload P) string) idempotency.KeyFunc[*asynq.Task] {
	return func(t *asynq.Task) (string, error) {
		var p P
		if err := json.Unmarshal(t.Payload(), &p); err != nil {
			return "", fmt.Errorf("idemasynq: decoding the %s payload: %w", t.Type(), err)
		}
		k := key(p)
		if k == "" {
			return "", idempotency.ErrEmptyKey
		}
		return t.Type() + ":" + k, nil
	}
}

// PayloadFingerprint is a fingerprint function (idempotency.WithFingerprint) over the task's
// type and payload.
func PayloadFingerprint(t *asynq.Task) ([]byte, error) {
	return append([]byte(t.Type()+"\x00"), t.Payload()...), nil
}

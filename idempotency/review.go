package idempotency

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
	"unicode/utf8"
)

// ReviewStore is a Store that can keep a failed marker: a key whose handler asked for manual
// review (NeedsReview), acknowledged without running until an operator lets it run again.
// Every store in this module is one. It is a separate interface so that stores written
// before it keep compiling; with a store that lacks it, a handler's NeedsReview keeps the
// claim until its lease ends instead (outcome "kept"), and WithNeedsReview fails New.
type ReviewStore interface {
	Store
	// Fail turns the InProgress claim held by token into a failed marker kept for retention,
	// with reason (the error's text); a Claim that finds it returns StatusFailed and the
	// reason. The key's steps are kept. Repeating it with the same token succeeds. It returns
	// ErrConflict when token does not hold an InProgress claim on the key.
	Fail(ctx context.Context, key string, token Token, retention time.Duration, reason string) error
	// Retry frees a key's failed marker, keeping its steps, so that the next delivery runs
	// the handler and resumes after the steps recorded. It returns ErrNotFailed when the key
	// has no live failed marker. (Inspector.Forget also lets the next delivery run, but
	// drops the steps: the job then starts over.)
	Retry(ctx context.Context, key string) error
}

// ErrNotFailed is returned by ReviewStore.Retry for a key that has no live failed marker: it
// was never marked, was retried or forgotten already, or its retention ran out.
var ErrNotFailed = errors.New("idempotency: the key has no failed marker to retry")

// ErrNeedsReview is matched (errors.Is) by every *NeedsReviewError. It is permanent, so an
// error wrapping it is too (IsPermanent).
var ErrNeedsReview error = permanentError{errors.New("idempotency: the job needs manual review")}

// maxReasonSize bounds the error text kept with a failed marker.
const maxReasonSize = 4 << 10

// NeedsReviewError asks for manual review of a job, or reports that its key awaits one. A
// handler returns it (NeedsReview) for a failure after a partial side effect that no retry
// can repair safely: the middleware marks the key failed, with the error's text, and the
// delivery fails permanently (asynq.SkipRetry, river.JobCancel, a poison queue). Later
// deliveries of the key are acknowledged without running the handler until an operator
// calls ReviewStore.Retry or Inspector.Forget.
type NeedsReviewError struct {
	// Err is the handler's error; nil for a duplicate (Duplicate).
	Err error
	// KeyHash is the short hash of the key that the logs carry too; set by the middleware.
	KeyHash string
	// Duplicate: the key was already marked failed and the handler did not run; Reason is
	// the marking failure's text (WithNeedsReviewReplay).
	Duplicate bool
	Reason    string
}

// NeedsReview marks err as needing manual review; nil stays nil. Return it from a handler
// run by the middleware.
func NeedsReview(err error) error {
	if err == nil {
		return nil
	}
	return &NeedsReviewError{Err: err}
}

func (e *NeedsReviewError) Error() string {
	if e.Duplicate {
		return fmt.Sprintf("idempotency: needs_review: key hash %s is marked failed for manual review; the job was not run: %s", e.KeyHash, e.Reason)
	}
	if e.KeyHash != "" {
		return fmt.Sprintf("idempotency: needs_review: key hash %s marked failed for manual review: %v", e.KeyHash, e.Err)
	}
	return fmt.Sprintf("idempotency: needs manual review: %v", e.Err)
}

func (e *NeedsReviewError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrNeedsReview) true.
func (e *NeedsReviewError) Is(target error) bool { return target == ErrNeedsReview }
func (e *NeedsReviewError) permanent()           {}

// WithNeedsReview chooses the handler errors that ask for manual review, besides those
// wrapped with NeedsReview: the key is marked failed (outcome "needs_review") instead of
// released. Use it for failures after a partial side effect that a retry would make worse:
// a payment captured whose order could not be written. The store must be a ReviewStore.
func WithNeedsReview(review func(err error) bool) Option {
	return func(c *config) {
		if review == nil {
			c.errs = append(c.errs, errors.New("WithNeedsReview: nil function"))
		}
		c.needsReview = review
	}
}

// WithNeedsReviewReplay makes a delivery of a key marked failed return a permanent
// *NeedsReviewError with the marking failure's text (as an API replays a failed request's
// answer to a retry with the same idempotency key), instead of nil. Either way the handler
// does not run and the delivery counts "needs_review_duplicate"; the adapters settle such a
// delivery the same way with or without it. The store must be a ReviewStore.
func WithNeedsReviewReplay() Option {
	return func(c *config) { c.replayReview = true }
}

// asksReview reports whether the handler's error asks for manual review.
func (c *core) asksReview(herr error) bool {
	if herr == nil {
		return false
	}
	if errors.Is(herr, ErrNeedsReview) {
		return true
	}
	return c.needsReview != nil && c.needsReview(herr)
}

// markForReview ends a delivery whose handler asked for manual review: the claim becomes a
// failed marker, and the delivery fails permanently.
func (c *core) markForReview(ctx context.Context, st *claimState, herr error) error {
	keyHash := c.keyHash(st.claim.StoreKey)
	out := &NeedsReviewError{Err: herr, KeyHash: keyHash}
	if nr, ok := herr.(*NeedsReviewError); ok && nr.Err != nil {
		out.Err = nr.Err // NeedsReview(err) returned as it is: not wrapped twice
	}
	rs, ok := c.store.(ReviewStore)
	if !ok {
		c.metrics.count(ctx, OutcomeKept)
		c.log(ctx, slog.LevelError, "idempotency: handler asked for manual review but the store cannot keep a failed marker (it is not a ReviewStore); claim kept until its lease ends", st.claim.StoreKey,
			slog.Any("error", herr))
		return out
	}
	reason := reasonText(out.Err)
	err := c.retry(ctx, opFail, 3, func(sctx context.Context) error {
		return rs.Fail(sctx, st.claim.StoreKey, st.claim.Token, st.claim.Retention, reason)
	})
	switch {
	case err == nil:
		c.metrics.count(ctx, OutcomeNeedsReview)
		c.log(ctx, slog.LevelError, "idempotency: needs_review: handler asked for manual review; key marked failed, later deliveries are acknowledged without running", st.claim.StoreKey,
			slog.Int64("epoch", st.claim.Token.Epoch), slog.Any("error", herr))
		return out
	case errors.Is(err, ErrConflict):
		c.metrics.count(ctx, OutcomeClaimLost)
		c.log(ctx, slog.LevelWarn, "idempotency: handler asked for manual review after its claim was no longer held; nothing marked", st.claim.StoreKey,
			slog.Int64("epoch", st.claim.Token.Epoch), slog.Any("error", herr))
		return out
	}
	c.metrics.storeError(ctx, opFail)
	c.metrics.count(ctx, OutcomeReleaseFailed)
	c.log(ctx, slog.LevelError, "idempotency: handler asked for manual review but the failed marker was not stored; the key stays blocked until the lease ends", st.claim.StoreKey,
		slog.Any("error", herr), slog.Any("store_error", err))
	return errors.Join(out, &StoreError{Op: opFail, Err: err})
}

// reasonText is the error text a failed marker keeps, for people to read: valid UTF-8 and at
// most maxReasonSize bytes, since an error can carry any bytes and grow without bound.
func reasonText(err error) string {
	s := err.Error()
	if !utf8.ValidString(s) {
		s = string([]rune(s)) // invalid bytes become U+FFFD
	}
	if len(s) > maxReasonSize {
		cut := maxReasonSize
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

type outcomeKey struct{}

// HandleOutcome is Handle that also returns the outcome the delivery ended with, as counted
// on the metric: OutcomeCompleted, OutcomeCompletedDuplicate, OutcomeNeedsReviewDuplicate and
// so on; "" when none was counted (a store error before the claim, a job passed through to
// an enclosing install). Adapters use it to settle a delivery the queue's way, such as
// cancelling the duplicate of a job that awaits review.
func (m *Middleware[J]) HandleOutcome(ctx context.Context, job J, next HandlerFunc[J]) (Outcome, error) {
	var out Outcome
	err := m.Handle(context.WithValue(ctx, outcomeKey{}, &out), job, next)
	return out, err
}

package idemasynq_test

import (
	"context"
	"errors"
	"testing"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/hibiken/asynq"
)

// A task that asks for review is archived (SkipRetry), and so is a later task of its key,
// which does not run, with or without the failure replayed.
func TestNeedsReview(t *testing.T) {
	ctx := context.Background()
	for _, replay := range []bool{false, true} {
		var opts []idempotency.Option
		if replay {
			opts = append(opts, idempotency.WithNeedsReviewReplay())
		}
		runs := 0
		errPartial := errors.New("charged, but the order was not written")
		h := newMiddleware(t, opts...)(asynq.HandlerFunc(func(context.Context, *asynq.Task) error {
			runs++
			return idempotency.NeedsReview(errPartial)
		}))
		err := h.ProcessTask(ctx, task(t, "a1", 100))
		if !errors.Is(err, asynq.SkipRetry) || !errors.Is(err, errPartial) || !errors.Is(err, idempotency.ErrNeedsReview) {
			t.Fatalf("replay %v: the task that asked for review: %v, want SkipRetry with its error", replay, err)
		}
		err = h.ProcessTask(ctx, task(t, "a1", 100))
		if !errors.Is(err, asynq.SkipRetry) || !errors.Is(err, idempotency.ErrNeedsReview) || runs != 1 {
			t.Fatalf("replay %v: a later task of the key: %v after %d runs, want SkipRetry without running", replay, err, runs)
		}
	}
}

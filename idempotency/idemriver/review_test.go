package idemriver_test

import (
	"context"
	"errors"
	"testing"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/riverqueue/river"
)

// A job that asks for review is cancelled, and so is a later job of its key, which is not
// worked, with or without the failure replayed.
func TestNeedsReview(t *testing.T) {
	ctx := context.Background()
	for _, replay := range []bool{false, true} {
		var opts []idempotency.Option
		if replay {
			opts = append(opts, idempotency.WithNeedsReviewReplay())
		}
		mw := newMiddleware(t, opts...)
		runs := 0
		errPartial := errors.New("charged, but the order was not written")
		work := func(context.Context) error { runs++; return idempotency.NeedsReview(errPartial) }
		var cancel *river.JobCancelError
		if err := mw.Work(ctx, row(t, "a1", 100), work); !errors.As(err, &cancel) || !errors.Is(err, errPartial) {
			t.Fatalf("replay %v: the job that asked for review: %v, want it cancelled with its error", replay, err)
		}
		err := mw.Work(ctx, row(t, "a1", 100), work)
		if !errors.As(err, &cancel) || !errors.Is(err, idempotency.ErrNeedsReview) || runs != 1 {
			t.Fatalf("replay %v: a later job of the key: %v after %d runs, want it cancelled without working", replay, err, runs)
		}
	}
}

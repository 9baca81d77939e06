package idemwatermill_test

import (
	"errors"
	"testing"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/chokaq/idemlint/idempotency"
)

// A message that asks for review fails permanently (for PoisonQueue); a later message of its
// key is acknowledged without running, with or without the failure replayed.
func TestNeedsReview(t *testing.T) {
	for _, replay := range []bool{false, true} {
		var opts []idempotency.Option
		if replay {
			opts = append(opts, idempotency.WithNeedsReviewReplay())
		}
		runs := 0
		errPartial := errors.New("charged, but the order was not written")
		h := newMiddleware(t, opts...)(func(*message.Message) ([]*message.Message, error) {
			runs++
			return nil, idempotency.NeedsReview(errPartial)
		})
		if _, err := h(event("e1", "in")); !idempotency.IsPermanent(err) || !errors.Is(err, errPartial) {
			t.Fatalf("replay %v: the message that asked for review: %v, want a permanent error", replay, err)
		}
		if out, err := h(event("e1", "in")); err != nil || out != nil || runs != 1 {
			t.Fatalf("replay %v: a later message of the key: %v %v after %d runs, want it acknowledged without running", replay, out, err, runs)
		}
	}
}

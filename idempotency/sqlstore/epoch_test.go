package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

// Defect 12 on SQL: after DeleteExpired dropped a key's row and the clock stepped back, the
// next claim's epoch must still be above the old holder's.
func TestEpochAfterDeleteExpiredAndClockStepBack(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			clock := idempotencytest.NewClock(time.Time{})
			s := newStore(t, d.open(t), d.dialect, clock)
			zombie, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "k", Owner: "zombie", Lease: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			clock.Advance(2 * time.Minute)
			if n, err := s.DeleteExpired(ctx, 10); err != nil || n != 1 {
				t.Fatalf("DeleteExpired: %d %v", n, err)
			}
			clock.Advance(-time.Hour)
			next, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "k", Owner: "next", Lease: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if next.Token.Epoch <= zombie.Token.Epoch {
				t.Fatalf("epoch %d after the clock stepped back, want above the zombie's %d", next.Token.Epoch, zombie.Token.Epoch)
			}
		})
	}
}

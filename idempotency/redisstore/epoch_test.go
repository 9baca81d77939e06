package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

// Defect 12 on Redis: after the record expired away (its TTL; here deleted as the TTL
// would) and the clock stepped back (a failover to a server whose clock is behind), the next
// claim's epoch must still be above the old holder's.
func TestEpochAfterTTLExpiryAndClockStepBack(t *testing.T) {
	ctx := context.Background()
	c := client(t)
	clock := idempotencytest.NewClock(time.Time{})
	s := newStore(t, c, clock)
	key := "epoch-" + time.Now().Format(time.RFC3339Nano)
	zombie, err := s.Claim(ctx, idempotency.ClaimRequest{Key: key, Owner: "zombie", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Del(ctx, s.RecordKey(key)).Err(); err != nil {
		t.Fatal(err)
	}
	clock.Advance(-time.Hour)
	next, err := s.Claim(ctx, idempotency.ClaimRequest{Key: key, Owner: "next", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if next.Token.Epoch <= zombie.Token.Epoch {
		t.Fatalf("epoch %d after the clock stepped back, want above the zombie's %d", next.Token.Epoch, zombie.Token.Epoch)
	}
}

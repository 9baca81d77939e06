package idempotency_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

// Defect 11: Capacity is one bound for the whole store, not 64 shard quotas.
func TestMemoryCapacityIsWholeStore(t *testing.T) {
	ctx := context.Background()
	for _, capacity := range []int{64, 1024} {
		store := idempotency.NewMemoryStore(idempotency.MemoryConfig{Capacity: capacity})
		claimed := 0
		for i := range capacity + 10 {
			_, err := store.Claim(ctx, idempotency.ClaimRequest{Key: fmt.Sprint("k", i), Owner: "o", Lease: time.Minute})
			switch {
			case err == nil:
				claimed++
			case !errors.Is(err, idempotency.ErrStoreFull):
				t.Fatal(err)
			}
		}
		if claimed != capacity {
			t.Errorf("Capacity %d: %d keys claimed before ErrStoreFull, want %d", capacity, claimed, capacity)
		}
	}
}

// Defect 12 on the memory store: after an expired record is swept and the clock steps back,
// the next claim's epoch must still be above every epoch the key had.
func TestMemoryEpochAfterSweepAndClockStepBack(t *testing.T) {
	ctx := context.Background()
	clock := idempotencytest.NewClock(time.Time{})
	store := idempotency.NewMemoryStore(idempotency.MemoryConfig{Clock: clock, SweepInterval: time.Minute})
	zombie, err := store.Claim(ctx, idempotency.ClaimRequest{Key: "k", Owner: "zombie", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(2 * time.Minute)
	// Any call on the key's shard sweeps the expired record away.
	if err := store.Release(ctx, "k", zombie.Token); !errors.Is(err, idempotency.ErrConflict) {
		t.Fatalf("release of a swept record: %v", err)
	}
	clock.Advance(-time.Hour) // the clock steps back
	next, err := store.Claim(ctx, idempotency.ClaimRequest{Key: "k", Owner: "next", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if next.Token.Epoch <= zombie.Token.Epoch {
		t.Fatalf("new holder's epoch %d is not above the zombie's %d", next.Token.Epoch, zombie.Token.Epoch)
	}
}

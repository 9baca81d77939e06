package sqlstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
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

// Issue #32 item 14 on PostgreSQL: the sequence alone fell behind the clock (one step per
// claim). idempotency_next_epoch moves it ahead of the clock under a lock; claims racing
// through that move must still get epochs that are distinct store-wide, at least the clock,
// and above every earlier one after the clock steps back.
func TestPostgresEpochsKeepUpWithTheClock(t *testing.T) {
	ctx := context.Background()
	clock := idempotencytest.NewClock(time.Time{})
	s := newStore(t, openPostgres(t, nil), sqlstore.Postgres, clock)
	seen := map[int64]bool{}
	var top int64
	for round, step := range []time.Duration{time.Hour, 2 * time.Second, -time.Hour, 24 * time.Hour} {
		clock.Advance(step)
		now := clock.Now().UnixMicro()
		const workers, claims = 8, 25
		epochs := make(chan int64, workers*claims)
		errs := make(chan error, workers)
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for i := range claims {
					r, err := s.Claim(ctx, idempotency.ClaimRequest{Key: fmt.Sprint(round, "-", w, "-", i), Owner: "o", Lease: time.Minute})
					if err != nil {
						errs <- err
						return
					}
					epochs <- r.Token.Epoch
				}
			})
		}
		wg.Wait()
		close(epochs)
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		var low int64 = -1
		for e := range epochs {
			if seen[e] {
				t.Fatalf("round %d: epoch %d handed out twice", round, e)
			}
			seen[e] = true
			if low < 0 || e < low {
				low = e
			}
		}
		if step > 0 && low < now {
			t.Fatalf("round %d (clock moved on by %s): lowest epoch %d is below the clock's %d", round, step, low, now)
		}
		if low <= top {
			t.Fatalf("round %d (clock moved by %s): lowest epoch %d is not above the earlier rounds' highest %d", round, step, low, top)
		}
		for e := range seen {
			top = max(top, e)
		}
	}
}

package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
)

func TestCleanup(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			clock := idempotencytest.NewClock(time.Time{})
			db := d.open(t)
			s := newStore(t, db, d.dialect, clock)
			for i := range 7 {
				if _, err := s.Claim(ctx, idempotency.ClaimRequest{Key: fmt.Sprint("old-", i), Owner: "o", Lease: time.Minute}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "live", Owner: "o", Lease: time.Hour}); err != nil {
				t.Fatal(err)
			}
			clock.Advance(2 * time.Minute)
			if n, err := s.DeleteAllExpired(ctx, 3); err != nil || n != 7 {
				t.Fatalf("DeleteAllExpired: %d %v, want all 7 expired rows in batches of 3", n, err)
			}
			var left int
			if err := db.QueryRow(`SELECT count(*) FROM idempotency_keys`).Scan(&left); err != nil || left != 1 {
				t.Fatalf("%d rows left (%v), want the live one", left, err)
			}
			// RunCleanup runs rounds until its context ends.
			if _, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "old-again", Owner: "o", Lease: time.Minute}); err != nil {
				t.Fatal(err)
			}
			clock.Advance(2 * time.Minute)
			rctx, cancel := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() { done <- s.RunCleanup(rctx, time.Millisecond, 10, func(err error) { t.Error(err) }) }()
			for deadline := time.Now().Add(30 * time.Second); ; {
				if err := db.QueryRow(`SELECT count(*) FROM idempotency_keys`).Scan(&left); err != nil {
					t.Fatal(err)
				}
				if left == 1 || time.Now().After(deadline) {
					break
				}
				time.Sleep(5 * time.Millisecond)
			}
			cancel()
			if err := <-done; !errors.Is(err, context.Canceled) || left != 1 {
				t.Fatalf("RunCleanup returned %v with %d rows left, want context.Canceled and 1", err, left)
			}
			if err := s.RunCleanup(ctx, 0, 1, nil); err == nil {
				t.Fatal("RunCleanup accepted a zero interval")
			}
		})
	}
}

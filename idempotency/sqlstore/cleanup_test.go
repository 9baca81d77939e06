package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
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

// DeleteExpired must keep a claim whose lease a renewal moved on, also when the lease it was
// claimed with has run out (on PostgreSQL renewals move it in idempotency_leases), and drop a
// key's lease row with the key.
func TestDeleteExpiredKeepsARenewedClaim(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			clock := idempotencytest.NewClock(time.Time{})
			db := d.open(t)
			s := newStore(t, db, d.dialect, clock)
			a, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "renewed", Owner: "a", Lease: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			clock.Advance(50 * time.Second)
			if err := s.Renew(ctx, "renewed", a.Token, time.Minute); err != nil {
				t.Fatal(err)
			}
			clock.Advance(20 * time.Second) // past the first lease, within the renewed one
			if n, err := s.DeleteAllExpired(ctx, 10); err != nil || n != 0 {
				t.Fatalf("DeleteAllExpired deleted %d (%v), want the renewed claim kept", n, err)
			}
			if r, err := s.Inspect(ctx, "renewed"); err != nil || r.Status != idempotency.StatusInProgress || r.Token != a.Token {
				t.Fatalf("after the cleanup: %+v %v, want the claim held", r, err)
			}
			clock.Advance(time.Minute)
			if n, err := s.DeleteAllExpired(ctx, 10); err != nil || n != 1 {
				t.Fatalf("DeleteAllExpired after the renewed lease deleted %d (%v), want 1", n, err)
			}
			if d.dialect == sqlstore.Postgres {
				if _, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "forgotten", Owner: "a", Lease: time.Minute}); err != nil {
					t.Fatal(err)
				}
				if err := s.Forget(ctx, "forgotten"); err != nil {
					t.Fatal(err)
				}
				var leases int
				if err := db.QueryRow(`SELECT count(*) FROM idempotency_leases`).Scan(&leases); err != nil || leases != 0 {
					t.Fatalf("%d lease rows left (%v) after DeleteExpired and Forget, want none", leases, err)
				}
			}
		})
	}
}

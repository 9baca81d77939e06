package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

var dialects = []struct {
	name    string
	dialect sqlstore.Dialect
	open    func(testing.TB) *sql.DB
}{
	{"Postgres", sqlstore.Postgres, func(t testing.TB) *sql.DB { return openPostgres(t, nil) }},
	{"SQLite", sqlstore.SQLite, openSQLite},
}

func TestConformance(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t)
			idempotencytest.TestStore(t, func(t *testing.T, clock idempotency.Clock) idempotency.Store {
				return newStore(t, db, d.dialect, clock)
			})
		})
	}
}

// TestDatabaseClock runs without a fake clock: leases end by the database's (PostgreSQL) or
// the process's (SQLite) own clock. It waits for a short lease to pass, by polling.
func TestDatabaseClock(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			s := newStore(t, d.open(t), d.dialect, nil)
			req := idempotency.ClaimRequest{Key: "clock", Owner: "a", Lease: 20 * time.Millisecond}
			a, err := s.Claim(ctx, req)
			if err != nil || a.Status != idempotency.StatusClaimed {
				t.Fatalf("claim: %+v %v", a, err)
			}
			req.Owner, req.Lease = "b", time.Minute
			deadline := time.Now().Add(30 * time.Second)
			var b idempotency.ClaimResult
			for {
				if b, err = s.Claim(ctx, req); err != nil {
					t.Fatal(err)
				}
				if b.Status == idempotency.StatusClaimed || time.Now().After(deadline) {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			if b.Status != idempotency.StatusClaimed || b.Token.Epoch <= a.Token.Epoch {
				t.Fatalf("after the lease: %+v, want claimed with an epoch above %d", b, a.Token.Epoch)
			}
			// Epochs come from the clock in microseconds.
			if now := time.Now().UnixMicro(); b.Token.Epoch < now-int64(time.Hour/time.Microsecond) || b.Token.Epoch > now+int64(time.Hour/time.Microsecond) {
				t.Fatalf("epoch %d is not near the clock's %d microseconds", b.Token.Epoch, now)
			}
			if err := s.Complete(ctx, req.Key, b.Token, 24*time.Hour); err != nil {
				t.Fatal(err)
			}
			c, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "clock", Owner: "c", Lease: time.Minute})
			if err != nil || c.Status != idempotency.StatusCompleted || c.ExpiresIn < 23*time.Hour || c.ExpiresIn > 24*time.Hour {
				t.Fatalf("completion marker: %+v %v, want completed for about 24h", c, err)
			}
		})
	}
}

func TestDeleteExpired(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			clock := idempotencytest.NewClock(time.Time{})
			s := newStore(t, d.open(t), d.dialect, clock)
			claim := func(key string, lease time.Duration) idempotency.Token {
				r, err := s.Claim(ctx, idempotency.ClaimRequest{Key: key, Owner: "owner-" + key, Lease: lease})
				if err != nil || r.Status != idempotency.StatusClaimed {
					t.Fatalf("claim %s: %+v %v", key, r, err)
				}
				return r.Token
			}
			for _, k := range []string{"a", "b", "c"} {
				claim(k, time.Minute)
			}
			if err := s.Complete(ctx, "c", claim("done", time.Minute), time.Hour); !errors.Is(err, idempotency.ErrConflict) {
				t.Fatalf("completing with another key's token: %v, want ErrConflict", err)
			}
			claim("long", time.Hour)
			clock.Advance(2 * time.Minute)
			n, err := s.DeleteExpired(ctx, 2)
			if err != nil || n != 2 {
				t.Fatalf("first batch deleted %d (%v), want 2", n, err)
			}
			if n, err = s.DeleteExpired(ctx, 100); err != nil || n != 2 {
				t.Fatalf("second batch deleted %d (%v), want the other 2 expired rows", n, err)
			}
			r, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "long", Owner: "x", Lease: time.Minute})
			if err != nil || r.Status != idempotency.StatusInProgress {
				t.Fatalf("the live claim: %+v %v, want it kept", r, err)
			}
			if _, err := s.DeleteExpired(ctx, 0); err == nil {
				t.Fatal("DeleteExpired accepted a zero limit")
			}
		})
	}
}

func TestMigrateIsRepeatableAndConcurrent(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t) // migrated once already
			var wg sync.WaitGroup
			errs := make(chan error, 4)
			for range 4 {
				wg.Go(func() { errs <- sqlstore.Migrate(ctx, db, d.dialect) })
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatalf("Migrate again: %v", err)
				}
			}
		})
	}
	if _, err := sqlstore.Migrations(0); err == nil {
		t.Fatal("Migrations accepted an unknown dialect")
	}
	if _, err := sqlstore.New(nil, sqlstore.Config{Dialect: sqlstore.Postgres}); err == nil {
		t.Fatal("New accepted a nil database")
	}
}

var quiet = idempotency.WithLogger(slog.New(slog.DiscardHandler))

package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// renewSignal is a store that says when a renewal has been stored.
type renewSignal struct {
	idempotency.Store
	once    sync.Once
	renewed chan struct{}
}

func (s *renewSignal) Renew(ctx context.Context, key string, token idempotency.Token, lease time.Duration) error {
	err := s.Store.Renew(ctx, key, token, lease)
	if err == nil {
		s.once.Do(func() { close(s.renewed) })
	}
	return err
}

// CompleteWithResult keeps the wrapped store's results.
func (s *renewSignal) CompleteWithResult(ctx context.Context, key string, token idempotency.Token, retention time.Duration, result []byte) error {
	return s.Store.(idempotency.ResultStore).CompleteWithResult(ctx, key, token, retention, result)
}

// Issue #32 item 8: a handler transaction at REPEATABLE READ or SERIALIZABLE that completes
// its claim (CompleteTx) after a renewal landed failed with "could not serialize access due
// to concurrent update" (40001): the renewal had updated the key's row after the
// transaction's snapshot. Every transaction longer than the renewal interval became a job
// that could never succeed.
func TestCompleteTxAtEveryIsolationLevel(t *testing.T) {
	for _, level := range []sql.IsolationLevel{sql.LevelReadCommitted, sql.LevelRepeatableRead, sql.LevelSerializable} {
		t.Run(level.String(), func(t *testing.T) {
			ctx := context.Background()
			db := openPostgres(t, nil)
			if _, err := db.Exec(chargesTable); err != nil {
				t.Fatal(err)
			}
			store := newStore(t, db, sqlstore.Postgres, nil)
			signal := &renewSignal{Store: store, renewed: make(chan struct{})}
			m := idempotencytest.NewMetrics()
			mw, err := idempotency.New(func(s string) (string, error) { return s, nil },
				idempotency.WithStore(signal), idempotency.WithRetention(time.Hour),
				// Renewals every 50ms in a lease of a minute: the renewal comes early, and a
				// loaded machine cannot make the lease run out.
				idempotency.WithLease(time.Minute), idempotency.WithRenewInterval(50*time.Millisecond),
				idempotency.WithMeterProvider(m.Provider), quiet)
			if err != nil {
				t.Fatal(err)
			}
			err = mw.Handle(ctx, "inv-1", func(ctx context.Context, invoice string) error {
				tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: level})
				if err != nil {
					return err
				}
				defer func() { _ = tx.Rollback() }()
				// The first statement takes the transaction's snapshot.
				if _, err := tx.ExecContext(ctx, `INSERT INTO charges (invoice, worker) VALUES ($1, 'a')`, invoice); err != nil {
					return err
				}
				select {
				case <-signal.renewed:
				case <-time.After(30 * time.Second):
					return errors.New("no renewal within 30s")
				}
				if err := store.CompleteTx(ctx, tx); err != nil {
					return fmt.Errorf("CompleteTx after a renewal: %w", err)
				}
				return tx.Commit()
			})
			if err != nil {
				t.Fatalf("a %s transaction that outlived a renewal: %v", level, err)
			}
			if n := countCharges(t, db); n != 1 {
				t.Fatalf("%d charges committed, want 1", n)
			}
			if n := m.Count(t, idempotency.OutcomeCompleted); n != 1 {
				t.Fatalf("completed counted %d times, want 1", n)
			}
		})
	}
}

// A zombie fenced at REPEATABLE READ or SERIALIZABLE: its claim was taken over after its
// transaction's snapshot, so its CompleteTx fails with a serialization error, not with no row
// to update. That error means what the READ COMMITTED zombie's ErrConflict means, and must
// end the delivery the same way: complete_conflict, no rows left behind.
func TestCompleteTxFencesAZombieAtEveryIsolationLevel(t *testing.T) {
	for _, level := range []sql.IsolationLevel{sql.LevelReadCommitted, sql.LevelRepeatableRead, sql.LevelSerializable} {
		t.Run(level.String(), func(t *testing.T) {
			ctx := context.Background()
			w := newTxWorld(t, func(t testing.TB) *sql.DB { return openPostgres(t, nil) }, sqlstore.Postgres)
			frozen, thaw := make(chan struct{}), make(chan struct{})
			zombie := make(chan error, 1)
			go func() {
				zombie <- w.mw.Handle(ctx, "inv-1", func(ctx context.Context, invoice string) error {
					tx, err := w.db.BeginTx(ctx, &sql.TxOptions{Isolation: level})
					if err != nil {
						return err
					}
					defer func() { _ = tx.Rollback() }()
					if _, err := tx.ExecContext(ctx, `INSERT INTO charges (invoice, worker) VALUES ($1, 'zombie')`, invoice); err != nil {
						return err
					}
					close(frozen)
					<-thaw
					if err := w.store.CompleteTx(ctx, tx); err != nil {
						return err
					}
					return tx.Commit()
				})
			}()
			<-frozen
			w.clock.Advance(time.Minute) // the zombie's lease ends
			if err := w.mw.Handle(ctx, "inv-1", charge(w.db, w.store, sqlstore.Postgres, "taker", nil)); err != nil {
				t.Fatalf("takeover: %v", err)
			}
			close(thaw)
			err := <-zombie
			var cc *idempotency.CompleteConflictError
			if !errors.As(err, &cc) || !errors.Is(err, idempotency.ErrConflict) {
				t.Fatalf("zombie returned %v, want a *CompleteConflictError", err)
			}
			var worker string
			if err := w.db.QueryRow(`SELECT string_agg(worker, ',') FROM charges`).Scan(&worker); err != nil || worker != "taker" {
				t.Fatalf("charges by %q (%v), want only the taker's", worker, err)
			}
			if n := w.m.Count(t, idempotency.OutcomeCompleteConflict); n != 1 {
				t.Fatalf("complete_conflict counted %d times, want 1", n)
			}
		})
	}
}

// With renewals kept in idempotency_leases, a claim (or a cleanup) that finds a lease run out
// by its snapshot must still see a renewal that commits while it runs: it locks the lease row,
// which waits for the renewal and reads what it wrote. Otherwise a worker whose renewal
// succeeded could be taken over at once.
func TestPostgresSeesARenewalThatLandsMeanwhile(t *testing.T) {
	for _, op := range []string{"Claim", "DeleteExpired"} {
		t.Run(op, func(t *testing.T) {
			ctx := context.Background()
			clock := idempotencytest.NewClock(time.Time{})
			db := openPostgres(t, nil)
			s := newStore(t, db, sqlstore.Postgres, clock)
			a, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "k", Owner: "a", Lease: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			clock.Advance(2 * time.Minute) // by the rows as they stand, the lease has run out
			// A renewal under way: it has updated the lease row and not committed yet.
			renewal, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = renewal.Rollback() }()
			if _, err := renewal.Exec(`UPDATE idempotency_leases SET expires_at = $2 WHERE key = 'k' AND epoch = $1`,
				a.Token.Epoch, clock.Now().Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			type result struct {
				claim   idempotency.ClaimResult
				deleted int64
				err     error
			}
			done := make(chan result, 1)
			go func() {
				var r result
				if op == "Claim" {
					r.claim, r.err = s.Claim(ctx, idempotency.ClaimRequest{Key: "k", Owner: "b", Lease: time.Minute})
				} else {
					r.deleted, r.err = s.DeleteExpired(ctx, 10)
				}
				done <- r
			}()
			waitForLockWait(t, db)
			if err := renewal.Commit(); err != nil {
				t.Fatal(err)
			}
			r := <-done
			switch {
			case r.err != nil:
				t.Fatal(r.err)
			case op == "Claim" && (r.claim.Status != idempotency.StatusInProgress || r.claim.Token != a.Token):
				t.Fatalf("claim beside a renewal that landed meanwhile: %+v, want the key in progress by %+v", r.claim, a.Token)
			case op == "DeleteExpired" && r.deleted != 0:
				t.Fatalf("DeleteExpired beside a renewal that landed meanwhile deleted %d rows, want the claim kept", r.deleted)
			}
			if err := s.Complete(ctx, "k", a.Token, time.Hour); err != nil {
				t.Fatalf("the renewed holder's completion: %v", err)
			}
		})
	}
}

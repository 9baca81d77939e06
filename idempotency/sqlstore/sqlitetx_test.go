package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// Issue #32 item 10: on SQLite the claim's renewals ran inside the handler's transaction
// (Store.BeginTx), so a rollback took them back: the key's row kept the lease it had before
// the transaction, long run out after a long transaction, and another worker took the key
// over while the holder, whose renewals had all "succeeded", went on running beside it.
func TestSQLiteTransactionEndKeepsTheLease(t *testing.T) {
	for _, end := range []string{"Rollback", "Commit"} {
		t.Run(end, func(t *testing.T) {
			ctx := context.Background()
			db := openSQLite(t)
			if _, err := db.Exec(chargesTable); err != nil {
				t.Fatal(err)
			}
			clock := idempotencytest.NewClock(time.Time{})
			store := newStore(t, db, sqlstore.SQLite, clock)
			m := idempotencytest.NewMetrics()
			// Renewals every 20ms in a minute-long lease (by the local clock, which the
			// fake one does not move): the test waits for them, never races them.
			mw, err := idempotency.New(func(s string) (string, error) { return s, nil },
				idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
				idempotency.WithLease(time.Minute), idempotency.WithRenewInterval(20*time.Millisecond),
				idempotency.WithMeterProvider(m.Provider), quiet)
			if err != nil {
				t.Fatal(err)
			}
			renewals := func() uint64 { return m.StoreCalls(t, "renew") }
			awaitRenewal := func(after uint64) error {
				for deadline := time.Now().Add(30 * time.Second); renewals() <= after; {
					if time.Now().After(deadline) {
						return errors.New("no renewal within 30s")
					}
					time.Sleep(5 * time.Millisecond)
				}
				return nil
			}
			ended := make(chan struct{})
			observed := make(chan idempotency.ClaimResult, 1)
			done := make(chan error, 1)
			go func() {
				done <- mw.Handle(ctx, "inv-1", func(ctx context.Context, invoice string) error {
					tx, err := store.BeginTx(ctx, nil)
					if err != nil {
						return err
					}
					if _, err := tx.ExecContext(ctx, `INSERT INTO charges (invoice, worker) VALUES (?1, 'a')`, invoice); err != nil {
						return err
					}
					if err := awaitRenewal(renewals()); err != nil {
						return err
					}
					// The transaction outlives the lease the key had when it began...
					clock.Advance(2 * time.Minute)
					// ...with the claim renewed all along.
					if err := awaitRenewal(renewals()); err != nil {
						return err
					}
					if end == "Rollback" {
						err = tx.Rollback()
					} else {
						err = tx.Commit()
					}
					if err != nil {
						return err
					}
					close(ended)
					// The holder goes on after its transaction; meanwhile another worker
					// looks at the key.
					r := <-observed
					if r.Status == idempotency.StatusClaimed {
						return errors.New("the key was taken over while its holder ran")
					}
					return nil
				})
			}()
			select {
			case <-ended:
			case err := <-done:
				t.Fatalf("the handler ended before its transaction did: %v", err)
			}
			r, err := store.Claim(ctx, idempotency.ClaimRequest{Key: idempotency.StoreKey("string", "inv-1"), Owner: "other", Lease: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			observed <- r
			if r.Status != idempotency.StatusInProgress {
				t.Fatalf("after the holder's transaction ended by %s, another worker's claim found the key %s; want it in progress (holder %+v)", end, r.Status, r.Token)
			}
			if err := <-done; err != nil {
				t.Fatalf("holder: %v", err)
			}
			want := map[string]int{"Rollback": 0, "Commit": 1}[end]
			if n := countCharges(t, db); n != want {
				t.Fatalf("%d charges after %s, want %d: the handler's own writes go as it says", n, end, want)
			}
		})
	}
}

// BeginTx on SQLite takes the write lock with a statement that checks the claim: a worker
// whose key was taken over before its transaction began cannot begin one, so it writes
// nothing. Ending a transaction twice says so, as *sql.Tx does.
func TestSQLiteBeginTxFencesAZombie(t *testing.T) {
	ctx := context.Background()
	w := newTxWorld(t, openSQLite, sqlstore.SQLite)
	err := w.mw.Handle(ctx, "inv-1", func(ctx context.Context, invoice string) error {
		w.clock.Advance(time.Minute) // the lease ends, and another worker takes the key over
		c, _ := idempotency.ClaimFromContext(ctx)
		if r, err := w.store.Claim(ctx, idempotency.ClaimRequest{Key: c.StoreKey, Owner: "taker", Lease: time.Minute}); err != nil || r.Status != idempotency.StatusClaimed {
			return fmt.Errorf("takeover: %+v %v", r, err)
		}
		tx, err := w.store.BeginTx(ctx, nil)
		if err == nil {
			_ = tx.Rollback()
			return errors.New("BeginTx succeeded for a claim taken over")
		}
		return err
	})
	if !errors.Is(err, idempotency.ErrConflict) {
		t.Fatalf("the zombie's delivery: %v; want BeginTx's ErrConflict", err)
	}
	err = w.mw.Handle(ctx, "inv-2", func(ctx context.Context, invoice string) error {
		for _, end := range []string{"Commit", "Rollback"} {
			tx, err := w.store.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			first, second := tx.Commit, tx.Rollback
			if end == "Rollback" {
				first, second = tx.Rollback, tx.Commit
			}
			if err := first(); err != nil {
				return fmt.Errorf("%s: %w", end, err)
			}
			if err := second(); !errors.Is(err, sql.ErrTxDone) {
				return fmt.Errorf("ending a transaction again after %s: %v, want sql.ErrTxDone", end, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// charges is a business table with no unique key of its own: a duplicate run would add a
// second row, which is what transactional completion must prevent.
const chargesTable = `CREATE TABLE charges (invoice text NOT NULL, worker text NOT NULL)`

// charge is a handler that writes a business row and the completion marker in one
// transaction. hold, if not nil, runs between the two writes.
func charge(db *sql.DB, store *sqlstore.Store, dialect sqlstore.Dialect, worker string, hold func()) idempotency.HandlerFunc[string] {
	insert := `INSERT INTO charges (invoice, worker) VALUES ($1, $2)`
	if dialect == sqlstore.SQLite {
		insert = `INSERT INTO charges (invoice, worker) VALUES (?1, ?2)`
	}
	return func(ctx context.Context, invoice string) error {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback() }()
		if _, err := tx.ExecContext(ctx, insert, invoice, worker); err != nil {
			return err
		}
		if hold != nil {
			hold()
		}
		if err := store.CompleteTx(ctx, tx); err != nil {
			return err
		}
		return tx.Commit()
	}
}

func countCharges(t *testing.T, db *sql.DB) (n int) {
	t.Helper()
	if err := db.QueryRow(`SELECT count(*) FROM charges`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

type txWorld struct {
	db     *sql.DB
	clock  *idempotencytest.Clock
	store  *sqlstore.Store
	faulty *idempotencytest.FaultyStore
	m      *idempotencytest.Metrics
	mw     *idempotency.Middleware[string]
}

func newTxWorld(t *testing.T, open func(testing.TB) *sql.DB, d sqlstore.Dialect) *txWorld {
	w := &txWorld{db: open(t), clock: idempotencytest.NewClock(time.Time{}), m: idempotencytest.NewMetrics()}
	if _, err := w.db.Exec(chargesTable); err != nil {
		t.Fatal(err)
	}
	w.store = newStore(t, w.db, d, w.clock)
	w.faulty = idempotencytest.NewFaultyStore(w.store)
	var err error
	w.mw, err = idempotency.New(func(s string) (string, error) { return "charge:" + s, nil },
		idempotency.WithStore(w.faulty), idempotency.WithRetention(time.Hour), idempotency.WithLease(time.Minute),
		idempotency.WithMeterProvider(w.m.Provider), quiet)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestCompleteTx(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			w := newTxWorld(t, d.open, d.dialect)
			h := charge(w.db, w.store, d.dialect, "a", nil)
			for range 2 {
				if err := w.mw.Handle(ctx, "inv-1", h); err != nil {
					t.Fatal(err)
				}
			}
			if n := countCharges(t, w.db); n != 1 {
				t.Fatalf("%d charges, want 1", n)
			}
			if n := w.faulty.Calls(idempotencytest.OpComplete); n != 0 {
				t.Fatalf("the middleware called Complete %d times; the transaction had already completed the key", n)
			}
			if got := w.m.Counts(t); got[idempotency.OutcomeCompleted] != 1 || got[idempotency.OutcomeCompletedDuplicate] != 1 {
				t.Fatalf("outcomes %v, want one completed and one completed_duplicate", got)
			}

			// A transaction that rolls back takes the marker with it: the claim is released.
			failing := func(ctx context.Context, invoice string) error {
				tx, err := w.db.BeginTx(ctx, nil)
				if err != nil {
					return err
				}
				if err := w.store.CompleteTx(ctx, tx); err != nil {
					return err
				}
				_ = tx.Rollback()
				return errors.New("commit failed")
			}
			if err := w.mw.Handle(ctx, "inv-2", failing); err == nil {
				t.Fatal("the failing handler's error was lost")
			}
			if err := w.mw.Handle(ctx, "inv-2", h); err != nil {
				t.Fatalf("retry after a rolled-back completion: %v", err)
			}
			if n := countCharges(t, w.db); n != 2 {
				t.Fatalf("%d charges, want 2", n)
			}
			if n := w.m.Count(t, idempotency.OutcomeReleased); n != 1 {
				t.Fatalf("released counted %d times, want 1", n)
			}

			if err := w.store.CompleteTx(ctx, nil); err == nil {
				t.Fatal("CompleteTx outside a handler succeeded")
			}

			// Run unprotected, there is no claim to complete: the transaction still commits.
			open, err := idempotency.New(func(string) (string, error) { return "", nil },
				idempotency.WithStore(w.store), idempotency.WithRetention(time.Hour),
				idempotency.WithEmptyKey(idempotency.RunUnprotected), quiet)
			if err != nil {
				t.Fatal(err)
			}
			if err := open.Handle(ctx, "inv-3", h); err != nil {
				t.Fatalf("unprotected run with CompleteTx: %v", err)
			}
			if n := countCharges(t, w.db); n != 3 {
				t.Fatalf("%d charges, want 3", n)
			}
		})
	}
}

// TestCompleteTxFencesAZombie: a worker whose claim was taken over while it worked cannot
// commit its business rows, because the completion in its transaction fails.
func TestCompleteTxFencesAZombie(t *testing.T) {
	ctx := context.Background()
	w := newTxWorld(t, func(t testing.TB) *sql.DB { return openPostgres(t, nil) }, sqlstore.Postgres)
	frozen, thaw := make(chan struct{}), make(chan struct{})
	zombie := make(chan error, 1)
	go func() {
		zombie <- w.mw.Handle(ctx, "inv-1", charge(w.db, w.store, sqlstore.Postgres, "zombie", func() {
			close(frozen)
			<-thaw
		}))
	}()
	<-frozen
	w.clock.Advance(time.Minute) // the zombie's lease ends
	if err := w.mw.Handle(ctx, "inv-1", charge(w.db, w.store, sqlstore.Postgres, "taker", nil)); err != nil {
		t.Fatalf("takeover: %v", err)
	}
	close(thaw)
	err := <-zombie
	var cc *idempotency.CompleteConflictError
	if !errors.As(err, &cc) {
		t.Fatalf("zombie returned %v, want a *CompleteConflictError", err)
	}
	var worker string
	if err := w.db.QueryRow(`SELECT string_agg(worker, ',') FROM charges`).Scan(&worker); err != nil || worker != "taker" {
		t.Fatalf("charges by %q (%v), want only the taker's", worker, err)
	}
	if n := w.m.Count(t, idempotency.OutcomeCompleteConflict); n != 1 {
		t.Fatalf("complete_conflict counted %d times, want 1", n)
	}
}

// TestCompleteTxHoldsTheKey: from CompleteTx to the commit, the transaction locks the key's
// row, so a worker that finds the lease over waits, and then sees the completion.
func TestCompleteTxHoldsTheKey(t *testing.T) {
	ctx := context.Background()
	w := newTxWorld(t, func(t testing.TB) *sql.DB { return openPostgres(t, nil) }, sqlstore.Postgres)
	var takeover <-chan error
	h := func(ctx context.Context, invoice string) error {
		tx, err := w.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback() }()
		if err := w.store.CompleteTx(ctx, tx); err != nil {
			return err
		}
		w.clock.Advance(time.Minute) // the lease ends before the commit
		ran := false
		done := make(chan error, 1)
		takeover = done
		go func() {
			err := w.mw.Handle(context.Background(), invoice, func(context.Context, string) error { ran = true; return nil })
			if ran {
				err = errors.Join(err, errors.New("the second worker ran the job"))
			}
			done <- err
		}()
		waitForLockWait(t, w.db)
		return tx.Commit()
	}
	if err := w.mw.Handle(ctx, "inv-1", h); err != nil {
		t.Fatal(err)
	}
	if err := <-takeover; err != nil {
		t.Fatalf("the waiting worker: %v; want the completion acknowledged", err)
	}
	if n := w.m.Count(t, idempotency.OutcomeCompletedDuplicate); n != 1 {
		t.Fatalf("completed_duplicate counted %d times, want 1", n)
	}
}

// waitForLockWait returns once another session of this test waits for a lock.
func waitForLockWait(t *testing.T, db *sql.DB) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var n int
		err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity
			 WHERE application_name = current_setting('application_name') AND wait_event_type = 'Lock'`).Scan(&n)
		if err != nil {
			t.Error(err)
			return
		}
		if n > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Error("no session started waiting for the key's row lock")
}

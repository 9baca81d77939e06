package sqlstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// TestStepTx: a step whose rows are written in the handler's transaction is recorded with
// them. A rollback leaves neither the rows nor the step (the redelivery writes them again);
// a commit leaves both, and the redelivery skips the step and writes no second row.
func TestStepTx(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			w := newTxWorld(t, d.open, d.dialect)
			insert := `INSERT INTO charges (invoice, worker) VALUES ($1, $2)`
			if d.dialect == sqlstore.SQLite {
				insert = `INSERT INTO charges (invoice, worker) VALUES (?1, ?2)`
			}
			errLater := errors.New("a later step failed")
			runs := 0
			handler := func(commit bool, fail error) idempotency.HandlerFunc[string] {
				return func(ctx context.Context, invoice string) error {
					tx, err := w.store.BeginTx(ctx, nil)
					if err != nil {
						return err
					}
					defer func() { _ = tx.Rollback() }()
					n, err := sqlstore.StepTx(ctx, w.store, tx.Tx, "insert", func(ctx context.Context) (int, error) {
						runs++
						_, err := tx.ExecContext(ctx, insert, invoice, "w")
						return runs, err
					})
					if err != nil {
						return err
					}
					// The transaction sees its own step: a second StepTx of the name in it
					// does not run again.
					again, err := sqlstore.StepTx(ctx, w.store, tx.Tx, "insert", func(context.Context) (int, error) {
						t.Error("a step recorded in this transaction ran again")
						return 0, nil
					})
					if err != nil || again != n {
						t.Errorf("the step again in its transaction: %d %v, want %d", again, err, n)
					}
					if !commit {
						return fail // the deferred Rollback undoes the row and the step
					}
					if err := tx.Commit(); err != nil {
						return err
					}
					return fail
				}
			}
			if err := w.mw.Handle(ctx, "inv-1", handler(false, errLater)); !errors.Is(err, errLater) {
				t.Fatalf("rolled back delivery: %v", err)
			}
			if n := countCharges(t, w.db); n != 0 {
				t.Fatalf("%d charges after a rollback, want 0", n)
			}
			if err := w.mw.Handle(ctx, "inv-1", handler(true, errLater)); !errors.Is(err, errLater) {
				t.Fatalf("committed delivery that then failed: %v", err)
			}
			if n := countCharges(t, w.db); n != 1 || runs != 2 {
				t.Fatalf("%d charges after %d runs, want the rolled back step run again, once", n, runs)
			}
			key, _ := w.mw.StoreKeyOf("inv-1")
			if steps, err := w.store.LoadSteps(ctx, key); err != nil || string(steps["insert"]) != "2" {
				t.Fatalf("steps %q %v, want the committed one", steps, err)
			}
			if err := w.mw.Handle(ctx, "inv-1", handler(true, nil)); err != nil {
				t.Fatalf("redelivery: %v", err)
			}
			if n := countCharges(t, w.db); n != 1 || runs != 2 {
				t.Fatalf("%d charges after %d runs, want the committed step skipped", n, runs)
			}
			// Outside a delivery StepTx fails without running.
			tx, err := w.db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = tx.Rollback() }()
			if _, err := sqlstore.StepTx(ctx, w.store, tx, "s", func(context.Context) (int, error) { t.Error("ran"); return 0, nil }); !errors.Is(err, idempotency.ErrNoDelivery) {
				t.Fatalf("StepTx outside a delivery: %v", err)
			}
		})
	}
}

// TestStepTxFencesAZombie: a worker whose claim was taken over cannot record a step in its
// transaction; the conflict ends its delivery as complete_conflict.
func TestStepTxFencesAZombie(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		if d.dialect == sqlstore.SQLite {
			continue // one writer: a takeover cannot happen while the holder's transaction is open
		}
		t.Run(d.name, func(t *testing.T) {
			w := newTxWorld(t, d.open, d.dialect)
			frozen, thaw := make(chan struct{}), make(chan struct{})
			done := make(chan error, 1)
			go func() {
				done <- w.mw.Handle(ctx, "inv-1", func(ctx context.Context, _ string) error {
					close(frozen)
					<-thaw
					tx, err := w.db.BeginTx(ctx, nil)
					if err != nil {
						return err
					}
					defer func() { _ = tx.Rollback() }()
					_, err = sqlstore.StepTx(ctx, w.store, tx, "s", func(context.Context) (int, error) { return 1, nil })
					if !errors.Is(err, idempotency.ErrConflict) {
						t.Errorf("the zombie's StepTx: %v, want ErrConflict", err)
					}
					return err
				})
			}()
			<-frozen
			w.clock.Advance(time.Minute) // the lease of newTxWorld's middleware
			if err := w.mw.Handle(ctx, "inv-1", func(context.Context, string) error { return nil }); err != nil {
				t.Fatalf("takeover: %v", err)
			}
			close(thaw)
			var cc *idempotency.CompleteConflictError
			if err := <-done; !errors.As(err, &cc) {
				t.Fatalf("the zombie's delivery: %v, want a *CompleteConflictError", err)
			}
		})
	}
}

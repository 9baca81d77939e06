package sqlstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// Defect 6: on SQLite, with the one connection the package advises, a handler's transaction
// held the connection, so the renewal could not run, timed out, and the handler was
// cancelled ("context canceled") with nothing committed. A transaction begun with the
// store's BeginTx carries the renewals itself.
func TestLongTransactionOnSQLite(t *testing.T) {
	ctx := context.Background()
	w := newTxWorld(t, openSQLite, sqlstore.SQLite)
	mw, err := idempotency.New(func(s string) (string, error) { return s, nil },
		// A lease ten renewals long: on a loaded machine (CI runs test packages side by
		// side on two cores) a renewal may come late by more than a few of its intervals.
		idempotency.WithStore(w.store), idempotency.WithRetention(time.Hour),
		idempotency.WithLease(2*time.Second), idempotency.WithRenewInterval(200*time.Millisecond),
		idempotency.WithStoreTimeout(time.Second), quiet)
	if err != nil {
		t.Fatal(err)
	}
	err = mw.Handle(ctx, "inv-1", func(ctx context.Context, invoice string) error {
		tx, err := beginTx(ctx, w)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback() }()
		if _, err := tx.ExecContext(ctx, `INSERT INTO charges (invoice, worker) VALUES (?1, 'a')`, invoice); err != nil {
			return err
		}
		time.Sleep(3 * time.Second) // longer than the lease: the claim lives on renewals alone
		if _, err := tx.ExecContext(ctx, `INSERT INTO charges (invoice, worker) VALUES (?1, 'a')`, invoice+"-line-2"); err != nil {
			return err
		}
		if err := w.store.CompleteTx(ctx, tx.Tx); err != nil {
			return err
		}
		return tx.Commit()
	})
	if err != nil {
		t.Fatalf("a transaction longer than the lease: %v", err)
	}
	if n := countCharges(t, w.db); n != 2 {
		t.Fatalf("%d rows committed, want 2", n)
	}
}

var beginTx = func(ctx context.Context, w *txWorld) (*sqlstore.Tx, error) { return w.store.BeginTx(ctx, nil) }

package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// poolWorld is a PostgreSQL store whose pool has exactly one connection per worker, and
// workers whose handlers hold a transaction longer than the lease.
type poolWorld struct {
	db    *sql.DB
	store *sqlstore.Store
	mw    *idempotency.Middleware[string]
}

const poolWorkers = 2

func newPoolWorld(t *testing.T, cfg sqlstore.Config) *poolWorld {
	t.Helper()
	return newPoolWorldOn(t, openPostgres(t, nil), cfg)
}

func newPoolWorldOn(t *testing.T, db *sql.DB, cfg sqlstore.Config) *poolWorld {
	t.Helper()
	if _, err := db.Exec(chargesTable); err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(poolWorkers)
	cfg.Dialect = sqlstore.Postgres
	store, err := sqlstore.New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	// Renewals every 100ms, each given 500ms, in a 3s lease: with a connection to renew on,
	// a loaded machine has many chances before the lease runs out.
	mw, err := idempotency.New(func(s string) (string, error) { return s, nil },
		idempotency.WithStore(store), idempotency.WithRetention(time.Hour),
		idempotency.WithLease(3*time.Second), idempotency.WithRenewInterval(100*time.Millisecond),
		idempotency.WithStoreTimeout(500*time.Millisecond), quiet)
	if err != nil {
		t.Fatal(err)
	}
	return &poolWorld{db: db, store: store, mw: mw}
}

// run has every worker handle a job whose transaction outlives the lease, and returns their
// errors.
func (w *poolWorld) run(t *testing.T) []error {
	errs := make([]error, poolWorkers)
	var wg sync.WaitGroup
	for i := range poolWorkers {
		wg.Go(func() {
			errs[i] = w.mw.Handle(context.Background(), fmt.Sprint("inv-", i), func(ctx context.Context, invoice string) error {
				tx, err := w.db.BeginTx(ctx, nil)
				if err != nil {
					return err
				}
				defer func() { _ = tx.Rollback() }()
				if _, err := tx.ExecContext(ctx, `INSERT INTO charges (invoice, worker) VALUES ($1, 'w')`, invoice); err != nil {
					return err
				}
				// Longer than the lease: the claim lives on renewals alone. A lost lease
				// cancels ctx, and the transaction with it.
				select {
				case <-time.After(4 * time.Second):
				case <-ctx.Done():
					return context.Cause(ctx)
				}
				if err := w.store.CompleteTx(ctx, tx); err != nil {
					return err
				}
				return tx.Commit()
			})
		})
	}
	wg.Wait()
	return errs
}

// Issue #32 item 9: with the pool sized for the workers, every connection is in a handler's
// transaction while the claims need renewing: the renewals waited for a connection, timed
// out, and every handler was cancelled. A pool of their own for renewals (Config.RenewDB)
// keeps them going.
func TestRenewalsWithAFullPool(t *testing.T) {
	admin := openPostgres(t, nil)
	renewDB := samePostgres(t, admin) // the same database and schema; a pool of its own
	renewDB.SetMaxOpenConns(1)
	w := newPoolWorldOn(t, admin, sqlstore.Config{RenewDB: renewDB})
	for i, err := range w.run(t) {
		if err != nil {
			t.Fatalf("worker %d: %v", i, err)
		}
	}
	if n := countCharges(t, w.db); n != poolWorkers {
		t.Fatalf("%d charges committed, want %d", n, poolWorkers)
	}
}

// Without headroom or a renewal pool the handlers still lose their leases; the renewal
// error (which the middleware logs, and hands to the handler as the cancellation's cause when
// it is the last straw) says why and what to do.
func TestRenewalErrorNamesAFullPool(t *testing.T) {
	w := newPoolWorld(t, sqlstore.Config{})
	for range poolWorkers { // every connection in a handler's transaction
		tx, err := w.db.BeginTx(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback() }()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := w.store.Renew(ctx, "inv-0", idempotency.Token{Owner: "o", Epoch: 1}, time.Minute)
	if err == nil || !strings.Contains(err.Error(), "every connection of the pool is in use") || !strings.Contains(err.Error(), "Config.RenewDB") {
		t.Fatalf("a renewal with every connection in a transaction: %v; want the full pool named and the remedies", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the renewal error %v does not match context.DeadlineExceeded", err)
	}
}

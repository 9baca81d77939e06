package outbox_test

import (
	"context"
	"errors"
	"io/fs"
	"sync"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/outbox"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// Under the middleware on SQLite, the handler's transaction begun by the store's BeginTx
// takes the Put and the completion together; a failed first delivery leaves nothing, and the
// retry's message is published once, under the ID ClaimID gives both deliveries.
func TestPutWithSQLiteStoreTx(t *testing.T) {
	e := openSQLite(t)
	ctx := context.Background()
	if err := sqlstore.Migrate(ctx, e.db, sqlstore.SQLite); err != nil {
		t.Fatal(err)
	}
	store, err := sqlstore.New(e.db, sqlstore.Config{Dialect: sqlstore.SQLite})
	if err != nil {
		t.Fatal(err)
	}
	mw, err := idempotency.New(func(j string) (string, error) { return j, nil },
		idempotency.WithName("charge"), idempotency.WithStore(store), idempotency.WithRetention(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	h := mw.Wrap(func(ctx context.Context, j string) error {
		runs++
		tx, err := store.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		id, err := outbox.ClaimID(ctx, "charged")
		if err != nil {
			return err
		}
		if err := outbox.Put(ctx, tx.Tx, outbox.Message{ID: id, Topic: "payments", Payload: []byte(j)}); err != nil {
			return err
		}
		if runs == 1 {
			return errors.New("fails after the Put: rolled back")
		}
		if err := store.CompleteTx(ctx, tx.Tx); err != nil {
			return err
		}
		return tx.Commit()
	})
	if err := h(ctx, "pa_1"); err == nil {
		t.Fatal("the first delivery did not fail")
	}
	if n := pending(t, e); n != 0 {
		t.Fatalf("%d messages after a failed delivery, want 0", n)
	}
	for range 2 { // the retry, then a duplicate acknowledged without running
		if err := h(ctx, "pa_1"); err != nil {
			t.Fatal(err)
		}
	}
	rec := &recorder{}
	drain(t, newRelay(t, e, e.db, outbox.Config{Publisher: rec}))
	key, _ := mw.StoreKeyOf("pa_1")
	want, _ := outbox.ID(key, "charged")
	if got := rec.ids(); len(got) != 1 || got[0] != want || runs != 2 {
		t.Fatalf("published %v after %d runs, want [%s] after 2", got, runs, want)
	}
}

// Concurrent start-ups on a fresh PostgreSQL schema all succeed and record the migration once.
func TestMigrateConcurrently(t *testing.T) {
	e := openPostgres(t)
	if _, err := e.db.Exec(`DROP TABLE idempotency_outbox; DROP TABLE idempotency_outbox_schema_versions`); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = outbox.Migrate(context.Background(), e.db, outbox.Postgres)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := e.db.QueryRow(`SELECT count(*) FROM idempotency_outbox_schema_versions`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("versions %d, %v; want 1", n, err)
	}
	if err := outbox.Migrate(context.Background(), e.db, outbox.Postgres, outbox.MigrateLockTimeout(0)); err == nil {
		t.Error("a zero lock timeout was accepted")
	}
}

func TestMigrationsFiles(t *testing.T) {
	for _, d := range []outbox.Dialect{outbox.Postgres, outbox.SQLite} {
		files, err := outbox.Migrations(d)
		if err != nil {
			t.Fatal(err)
		}
		ups, _ := fs.Glob(files, "*.up.sql")
		downs, _ := fs.Glob(files, "*.down.sql")
		if len(ups) != 1 || len(downs) != 1 {
			t.Errorf("%v: up files %v, down files %v", d, ups, downs)
		}
	}
	if _, err := outbox.Migrations(0); err == nil {
		t.Error("Migrations of an unknown dialect succeeded")
	}
}

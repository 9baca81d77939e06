package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// Issue #32 item 2: Migrate at start-up must not wait for locks on the store's table when
// there is nothing to do. Before, it ran every statement again in one transaction: CREATE
// INDEX IF NOT EXISTS and ADD COLUMN IF NOT EXISTS lock the table before finding nothing to
// do, with no lock_timeout, so a pg_dump or an open handler transaction stalled the start-up,
// and every claim queued behind the stalled migration.
func TestMigrateWhileTheTableIsLocked(t *testing.T) {
	for _, c := range []struct{ name, lock string }{
		// pg_dump, or a long report: ACCESS SHARE, which ALTER TABLE waits for.
		{"Reader", `LOCK TABLE idempotency_keys IN ACCESS SHARE MODE`},
		// An open handler transaction after CompleteTx: a row lock and ROW EXCLUSIVE, which
		// CREATE INDEX waits for.
		{"OpenCompleteTx", `UPDATE idempotency_keys SET expires_at = expires_at WHERE key = 'held'`},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			db := openPostgres(t, nil)
			s := newStore(t, db, sqlstore.Postgres, nil)
			if _, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "held", Owner: "o", Lease: time.Hour}); err != nil {
				t.Fatal(err)
			}
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = tx.Rollback() }()
			if _, err := tx.Exec(c.lock); err != nil {
				t.Fatal(err)
			}
			// Claims go on meanwhile; none may wait for the migration.
			stop := make(chan struct{})
			var claims sync.WaitGroup
			var claimErr atomic.Pointer[error]
			claims.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
					_, err := s.Claim(cctx, idempotency.ClaimRequest{Key: fmt.Sprint("k-", i), Owner: "o", Lease: time.Minute})
					cancel()
					if err != nil {
						claimErr.Store(&err)
						return
					}
				}
			})
			// A generous bound: Migrate must return long before it, without waiting.
			mctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			err = sqlstore.Migrate(mctx, db, sqlstore.Postgres)
			cancel()
			close(stop)
			claims.Wait()
			if err != nil {
				t.Fatalf("Migrate of a migrated store while another transaction holds a lock on its table: %v", err)
			}
			if p := claimErr.Load(); p != nil {
				t.Fatalf("a claim during the migration: %v", *p)
			}
		})
	}
}

// Start-ups under load: many workers start at once (each runs Migrate) while others claim,
// complete and hold handler transactions. Before, most start-ups failed with "deadlock
// detected". Also the first start-up after an upgrade, when the versions are not recorded
// yet.
func TestMigrateConcurrentlyUnderLoad(t *testing.T) {
	t.Run("Recorded", func(t *testing.T) { testMigrateUnderLoad(t, false) })
	t.Run("Unrecorded", func(t *testing.T) { testMigrateUnderLoad(t, true) })
}

func testMigrateUnderLoad(t *testing.T, unrecorded bool) {
	ctx := context.Background()
	db := openPostgres(t, nil)
	if unrecorded {
		if _, err := db.Exec(`DROP TABLE idempotency_schema_versions`); err != nil {
			t.Fatal(err)
		}
	}
	db.SetMaxOpenConns(40)
	s := newStore(t, db, sqlstore.Postgres, nil)
	mw, err := idempotency.New(func(k string) (string, error) { return k, nil },
		idempotency.WithStore(s), idempotency.WithRetention(time.Hour), quiet)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var load sync.WaitGroup
	var loadErr atomic.Pointer[error]
	for w := range 4 {
		load.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				// A handler whose completion rides in its own transaction.
				err := mw.Handle(ctx, fmt.Sprint(w, "-", i), func(ctx context.Context, _ string) error {
					tx, err := db.BeginTx(ctx, nil)
					if err != nil {
						return err
					}
					defer func() { _ = tx.Rollback() }()
					if err := s.CompleteTx(ctx, tx); err != nil {
						return err
					}
					return tx.Commit()
				})
				if err != nil {
					loadErr.Store(&err)
					return
				}
			}
		})
	}
	const starts = 20
	errs := make(chan error, starts)
	var wg sync.WaitGroup
	for range starts {
		wg.Go(func() {
			mctx, cancel := context.WithTimeout(ctx, 60*time.Second)
			defer cancel()
			errs <- sqlstore.Migrate(mctx, db, sqlstore.Postgres)
		})
	}
	wg.Wait()
	close(stop)
	load.Wait()
	close(errs)
	failed := 0
	var first error
	for err := range errs {
		if err != nil {
			failed++
			first = cmp(first, err)
		}
	}
	if failed > 0 {
		t.Fatalf("%d of %d start-ups failed under load; the first: %v", failed, starts, first)
	}
	if p := loadErr.Load(); p != nil {
		t.Fatalf("a job failed during the start-ups: %v", *p)
	}
}

func cmp(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// A migration that still has to change the table waits for its lock at most the lock
// timeout, and then fails with ErrMigrateLockTimeout, changing nothing; once the table is
// free, Migrate applies it.
func TestMigrateLockTimeout(t *testing.T) {
	ctx := context.Background()
	db := openPostgres(t, nil)
	// Make migration 0001 pending again: its index gone, its version forgotten.
	for _, stmt := range []string{`DROP INDEX idempotency_keys_expires_at`, `DELETE FROM idempotency_schema_versions WHERE version = 1`} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.Exec(`LOCK TABLE idempotency_keys IN ACCESS SHARE MODE`); err != nil {
		t.Fatal(err)
	}
	mctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	err = sqlstore.Migrate(mctx, db, sqlstore.Postgres, sqlstore.MigrateLockTimeout(100*time.Millisecond))
	if !errors.Is(err, sqlstore.ErrMigrateLockTimeout) || mctx.Err() != nil || !strings.Contains(err.Error(), "start again") {
		t.Fatalf("Migrate with the table locked and a migration to apply: %v; want ErrMigrateLockTimeout well before the context's end", err)
	}
	var versions int
	if err := db.QueryRow(`SELECT count(*) FROM idempotency_schema_versions WHERE version = 1`).Scan(&versions); err != nil || versions != 0 {
		t.Fatalf("version 1 recorded %d times (%v) after the failed run, want it left pending", versions, err)
	}
	_ = tx.Rollback()
	if err := sqlstore.Migrate(ctx, db, sqlstore.Postgres); err != nil {
		t.Fatalf("Migrate once the table is free: %v", err)
	}
	var index bool
	if err := db.QueryRow(`SELECT to_regclass('idempotency_keys_expires_at') IS NOT NULL`).Scan(&index); err != nil || !index {
		t.Fatalf("index after the migration: %v %v, want it created again", index, err)
	}
	if err := sqlstore.Migrate(ctx, db, sqlstore.Postgres, sqlstore.MigrateLockTimeout(0)); err == nil {
		t.Fatal("Migrate accepted a zero lock timeout")
	}
}

// A database migrated before Migrate recorded versions (or by another tool) has every
// migration's changes but no versions table: Migrate records them from the catalog, without
// running them and without waiting for a lock on the table.
func TestMigrateRecordsAnEarlierSchema(t *testing.T) {
	ctx := context.Background()
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			db := d.open(t)
			if _, err := db.Exec(`DROP TABLE idempotency_schema_versions`); err != nil {
				t.Fatal(err)
			}
			if d.dialect == sqlstore.Postgres {
				// A pg_dump holds the table meanwhile.
				tx, err := db.BeginTx(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer func() { _ = tx.Rollback() }()
				if _, err := tx.Exec(`LOCK TABLE idempotency_keys IN ACCESS SHARE MODE`); err != nil {
					t.Fatal(err)
				}
			}
			// SQLite's 0003 cannot run twice (ADD COLUMN has no IF NOT EXISTS there), so a
			// run of it would fail: recording from the catalog is what passes.
			mctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			if err := sqlstore.Migrate(mctx, db, d.dialect); err != nil {
				t.Fatalf("Migrate of a schema without a versions table: %v", err)
			}
			files, _ := sqlstore.Migrations(d.dialect)
			ups, _ := fs.Glob(files, "*.up.sql")
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM idempotency_schema_versions`).Scan(&n); err != nil || n != len(ups) {
				t.Fatalf("%d versions recorded (%v), want all %d", n, err, len(ups))
			}
		})
	}
}

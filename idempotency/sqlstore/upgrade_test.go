package sqlstore_test

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// TestUpgradeToFailedMarkers: a SQLite database migrated before steps and failed markers
// (migrations 0001 to 0003) keeps its rows, its epoch high-water mark and its triggers when
// migration 0005 rebuilds the table, and takes failed markers after.
func TestUpgradeToFailedMarkers(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "old.db")+"?_pragma=busy_timeout(10000)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = db.Close() })
	files, err := sqlstore.Migrations(sqlstore.SQLite)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"0001_idempotency_keys", "0002_idempotency_epoch", "0003_idempotency_result"} {
		body, err := fs.ReadFile(files, name+".up.sql")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(string(body)); err != nil {
			t.Fatalf("applying %s: %v", name, err)
		}
	}
	clock := idempotencytest.NewClock(time.Time{})
	old := newStore(t, db, sqlstore.SQLite, clock) // the old schema serves the old statements
	done, err := old.Claim(ctx, idempotency.ClaimRequest{Key: "done", Owner: "a", Lease: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if err := old.CompleteWithResult(ctx, "done", done.Token, time.Hour, []byte("receipt")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO idempotency_keys (key, state, owner, epoch, expires_at) VALUES ('x', 'failed', 'o', 1, 0)`); err == nil {
		t.Fatal("the old schema took a failed row: the test does not start from the old schema")
	}
	if err := sqlstore.Migrate(ctx, db, sqlstore.SQLite); err != nil {
		t.Fatalf("Migrate: %v", err)
	}
	s := newStore(t, db, sqlstore.SQLite, clock)
	got, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "done", Owner: "b", Lease: time.Minute})
	if err != nil || got.Status != idempotency.StatusCompleted || string(got.Result) != "receipt" || got.Token != done.Token {
		t.Fatalf("the completion marker after the upgrade: %+v %v", got, err)
	}
	// The epoch triggers came back with the table: a new claim's epoch is above the old one
	// even with the clock stepped back.
	clock.Advance(-time.Hour)
	c, err := s.Claim(ctx, idempotency.ClaimRequest{Key: "new", Owner: "c", Lease: time.Minute})
	if err != nil || c.Status != idempotency.StatusClaimed || c.Token.Epoch <= done.Token.Epoch {
		t.Fatalf("a claim after the upgrade: %+v %v, want an epoch above %d", c, err, done.Token.Epoch)
	}
	if err := s.Fail(ctx, "new", c.Token, time.Hour, "needs review"); err != nil {
		t.Fatalf("Fail after the upgrade: %v", err)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'idempotency_keys'`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("%d triggers on idempotency_keys (%v), want the 2 epoch triggers", n, err)
	}
}

package sqlstore_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"
)

// roundTrips counts request/response exchanges on the wire: a write after a read (or the
// first write) starts a new one, however the driver splits its messages.
type roundTrips struct{ n atomic.Int64 }

type countingConn struct {
	net.Conn
	rt       *roundTrips
	lastRead atomic.Bool
}

func (c *countingConn) Write(b []byte) (int, error) {
	if c.lastRead.Swap(false) {
		c.rt.n.Add(1)
	}
	return c.Conn.Write(b)
}

func (c *countingConn) Read(b []byte) (int, error) {
	c.lastRead.Store(true)
	return c.Conn.Read(b)
}

// openPostgres opens the test database in a schema of its own, dropped at the end, with the
// table migrated. rt, if not nil, counts the round trips of every connection.
func openPostgres(t testing.TB, rt *roundTrips) *sql.DB {
	t.Helper()
	dsn := idempotencytest.PostgresDSN(t)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "idemtest_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	cfg.RuntimeParams["search_path"] = schema
	cfg.RuntimeParams["application_name"] = schema // tells this test's sessions apart
	if rt != nil {
		dial := cfg.DialFunc
		cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dial(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			cc := &countingConn{Conn: c, rt: rt}
			cc.lastRead.Store(true)
			return cc, nil
		}
	}
	db := stdlib.OpenDB(*cfg)
	// Keep connections for the concurrent tests instead of dialling anew for most calls
	// (database/sql keeps only two idle ones by default).
	db.SetMaxIdleConns(64)
	pgConfigs.Store(db, cfg)
	t.Cleanup(func() {
		_ = db.Close()
		_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		_ = admin.Close()
	})
	if err := sqlstore.Migrate(context.Background(), db, sqlstore.Postgres); err != nil {
		t.Fatal(err)
	}
	return db
}

// pgConfigs keeps each test database's connection settings, for samePostgres.
var pgConfigs sync.Map // *sql.DB -> *pgx.ConnConfig

// samePostgres opens another pool on db's database and schema, closed at the end.
func samePostgres(t testing.TB, db *sql.DB) *sql.DB {
	t.Helper()
	cfg, ok := pgConfigs.Load(db)
	if !ok {
		t.Fatal("samePostgres: not a database from openPostgres")
	}
	other := stdlib.OpenDB(*cfg.(*pgx.ConnConfig))
	t.Cleanup(func() { _ = other.Close() })
	return other
}

// openSQLite opens a fresh database file, configured as the package doc advises.
func openSQLite(t testing.TB) *sql.DB {
	t.Helper()
	dsn := "file:" + filepath.Join(t.TempDir(), "idempotency.db") +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	// SQLite has one writer at a time: one connection queues the callers in the pool rather
	// than in SQLite's busy handler, which sleeps.
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = db.Close() })
	if err := sqlstore.Migrate(context.Background(), db, sqlstore.SQLite); err != nil {
		t.Fatal(err)
	}
	return db
}

func newStore(t testing.TB, db *sql.DB, d sqlstore.Dialect, clock idempotency.Clock) *sqlstore.Store {
	t.Helper()
	s, err := sqlstore.New(db, sqlstore.Config{Dialect: d, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

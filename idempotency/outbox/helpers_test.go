package outbox_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	_ "modernc.org/sqlite"

	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/outbox"
)

// env is one test database with the outbox migrated.
type env struct {
	dialect outbox.Dialect
	db      *sql.DB
	// another opens another pool on the same database (and schema), closed at the end;
	// name tells its PostgreSQL sessions apart (application_name).
	another func(t testing.TB, name string) *sql.DB
	// pgx is the PostgreSQL connection settings, for pgx pools (nil on SQLite).
	pgx *pgx.ConnConfig
}

// each runs f on PostgreSQL and on SQLite.
func each(t *testing.T, f func(t *testing.T, e env)) {
	t.Run("postgres", func(t *testing.T) { f(t, openPostgres(t)) })
	t.Run("sqlite", func(t *testing.T) { f(t, openSQLite(t)) })
}

func openPostgres(t testing.TB) env {
	t.Helper()
	dsn := idempotencytest.PostgresDSN(t)
	cfg, err := pgx.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "outboxtest_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		_ = admin.Close()
	})
	cfg.RuntimeParams["search_path"] = schema
	another := func(t testing.TB, name string) *sql.DB {
		c := cfg.Copy()
		c.RuntimeParams["application_name"] = schema + "_" + name
		db := stdlib.OpenDB(*c)
		db.SetMaxIdleConns(16)
		t.Cleanup(func() { _ = db.Close() })
		return db
	}
	e := env{dialect: outbox.Postgres, db: another(t, "main"), another: another, pgx: cfg}
	migrate(t, e)
	return e
}

func openSQLite(t testing.TB) env {
	t.Helper()
	dsn := "file:" + filepath.Join(t.TempDir(), "outbox.db") +
		"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)&_txlock=immediate"
	another := func(t testing.TB, _ string) *sql.DB {
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		t.Cleanup(func() { _ = db.Close() })
		return db
	}
	e := env{dialect: outbox.SQLite, db: another(t, "main"), another: another}
	migrate(t, e)
	return e
}

func migrate(t testing.TB, e env) {
	t.Helper()
	if err := outbox.Migrate(context.Background(), e.db, e.dialect); err != nil {
		t.Fatal(err)
	}
}

// put writes msgs in one committed transaction.
func put(t testing.TB, e env, msgs ...outbox.Message) {
	t.Helper()
	ctx := context.Background()
	tx, err := e.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, m := range msgs {
		if err := outbox.Put(ctx, tx, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func msg(topic string, i int) outbox.Message {
	return outbox.Message{ID: fmt.Sprintf("%s-%04d", topic, i), Topic: topic, Payload: []byte(fmt.Sprintf(`{"n":%d}`, i))}
}

// recorder is a Publisher that records what it publishes, in order. fail, if set, decides
// whether a publish fails (after it is recorded as an attempt).
type recorder struct {
	mu        sync.Mutex
	published []outbox.Message
	attempts  []string
	fail      func(m outbox.Message, attempt int) error
	after     func(m outbox.Message) // called after a successful publish, unlocked
	delay     time.Duration
}

func (r *recorder) Publish(ctx context.Context, m outbox.Message) error {
	if r.delay > 0 {
		time.Sleep(r.delay)
	}
	r.mu.Lock()
	r.attempts = append(r.attempts, m.ID)
	n := 0
	for _, a := range r.attempts {
		if a == m.ID {
			n++
		}
	}
	if r.fail != nil {
		if err := r.fail(m, n); err != nil {
			r.mu.Unlock()
			return err
		}
	}
	r.published = append(r.published, m)
	after := r.after
	r.mu.Unlock()
	if after != nil {
		after(m)
	}
	return nil
}

func (r *recorder) ids() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.published))
	for i, m := range r.published {
		out[i] = m.ID
	}
	return out
}

func newRelay(t testing.TB, e env, db *sql.DB, cfg outbox.Config) *outbox.Relay {
	t.Helper()
	cfg.Dialect = e.dialect
	if cfg.Retention == 0 {
		cfg.Retention = time.Hour
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	r, err := outbox.NewRelay(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// drain runs batches until one takes nothing.
func drain(t testing.TB, r *outbox.Relay) {
	t.Helper()
	for range 1000 {
		n, err := r.RelayOnce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
	t.Fatal("the relay never ran out of messages")
}

func pending(t testing.TB, e env) int {
	t.Helper()
	var n int
	if err := e.db.QueryRow(`SELECT count(*) FROM idempotency_outbox WHERE published_at IS NULL`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// metrics is an in-memory OpenTelemetry reader.
type metrics struct {
	provider *sdkmetric.MeterProvider
	reader   *sdkmetric.ManualReader
}

func newMetrics() *metrics {
	r := sdkmetric.NewManualReader()
	return &metrics{provider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(r)), reader: r}
}

// value returns the sum of the counter, or the gauge's value, named name on points with attrs.
func (m *metrics) value(t testing.TB, name string, attrs ...attribute.KeyValue) float64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := m.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	has := func(set attribute.Set) bool {
		for _, kv := range attrs {
			if v, ok := set.Value(kv.Key); !ok || v != kv.Value {
				return false
			}
		}
		return true
	}
	var v float64
	for _, sm := range rm.ScopeMetrics {
		for _, mt := range sm.Metrics {
			if mt.Name != name {
				continue
			}
			switch d := mt.Data.(type) {
			case metricdata.Sum[int64]:
				for _, dp := range d.DataPoints {
					if has(dp.Attributes) {
						v += float64(dp.Value)
					}
				}
			case metricdata.Gauge[int64]:
				for _, dp := range d.DataPoints {
					if has(dp.Attributes) {
						v += float64(dp.Value)
					}
				}
			case metricdata.Gauge[float64]:
				for _, dp := range d.DataPoints {
					if has(dp.Attributes) {
						v += dp.Value
					}
				}
			}
		}
	}
	return v
}

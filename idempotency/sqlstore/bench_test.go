package sqlstore_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
)

// BenchmarkPostgresRoundTrips measures a protected job on PostgreSQL and counts the round
// trips it costs on the wire, reported as roundtrips/job (all of them) and
// middleware_roundtrips/job (those beyond the handler's own statements).
func BenchmarkPostgresRoundTrips(b *testing.B) {
	ctx := context.Background()
	rt := &roundTrips{}
	db := openPostgres(b, rt)
	db.SetMaxOpenConns(1) // one connection: every statement is counted on one wire
	if _, err := db.Exec(`CREATE TABLE invoices (id text PRIMARY KEY, amount bigint NOT NULL)`); err != nil {
		b.Fatal(err)
	}
	store := newStore(b, db, sqlstore.Postgres, nil)
	mw, err := idempotency.New(func(id string) (string, error) { return "invoice:" + id, nil },
		idempotency.WithStore(store), idempotency.WithRetention(24*time.Hour), quiet)
	if err != nil {
		b.Fatal(err)
	}
	insert := func(ctx context.Context, tx *sql.Tx, id string) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO invoices (id, amount) VALUES ($1, 100)`, id)
		return err
	}
	cases := []struct {
		name    string
		own     int64 // round trips the handler makes itself
		handler idempotency.HandlerFunc[string]
	}{
		{"NoOpHandler", 0, func(context.Context, string) error { return nil }},
		{"HandlerTx", 3, func(ctx context.Context, id string) error { // BEGIN, INSERT, COMMIT
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer func() { _ = tx.Rollback() }()
			if err := insert(ctx, tx, id); err != nil {
				return err
			}
			return tx.Commit()
		}},
		{"TransactionalCompletion", 3, func(ctx context.Context, id string) error { // BEGIN, INSERT, COMMIT
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer func() { _ = tx.Rollback() }()
			if err := insert(ctx, tx, id); err != nil {
				return err
			}
			if err := store.CompleteTx(ctx, tx); err != nil {
				return err
			}
			return tx.Commit()
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			prefix := fmt.Sprint(c.name, "-", time.Now().UnixNano(), "-")
			// Warm up: prepare the statements on the connection outside the count.
			if err := mw.Handle(ctx, prefix+"warm", c.handler); err != nil {
				b.Fatal(err)
			}
			start := rt.n.Load()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				if err := mw.Handle(ctx, fmt.Sprint(prefix, i), c.handler); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.StopTimer()
			total := float64(rt.n.Load()-start) / float64(i)
			b.ReportMetric(total, "roundtrips/job")
			b.ReportMetric(total-float64(c.own), "middleware_roundtrips/job")
		})
	}
}

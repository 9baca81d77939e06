package idemriver_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/chokaq/idemlint/idempotency/idempotencytest"
	"github.com/chokaq/idemlint/idempotency/idemriver"
	"github.com/chokaq/idemlint/idempotency/outbox"
)

// A message published twice is one job, unique by its outbox ID alone, whose args are the
// payload with the ID added.
func TestOutboxPublisherInsertsUniqueByID(t *testing.T) {
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, idempotencytest.PostgresDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "idemriver_" + hex.EncodeToString(b[:])
	if _, err := pool.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = pool.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE") }()
	driver := riverpgxv5.New(pool)
	migrator, err := rivermigrate.New(driver, &rivermigrate.Config{Schema: schema, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		t.Fatal(err)
	}
	client, err := river.NewClient[pgx.Tx](driver, &river.Config{Schema: schema, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	pub := idemriver.OutboxPublisher(client, &river.InsertOpts{Queue: "outbox"})
	first := outbox.Message{ID: "m-1", Topic: "charge", Payload: []byte(`{"attempt_id":"pa_1","amount":5}`)}
	same := first
	same.Payload = []byte(`{"attempt_id":"pa_1","amount":6}`)                   // unique by the ID alone
	other := outbox.Message{ID: "m-2", Topic: "charge", Payload: first.Payload} // same args, another message
	for _, m := range []outbox.Message{first, same, other} {
		if err := pub.Publish(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := pool.Query(ctx, `SELECT args, queue FROM `+schema+`.river_job WHERE kind = 'charge' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	for rows.Next() {
		var args []byte
		var queue string
		if err := rows.Scan(&args, &queue); err != nil {
			t.Fatal(err)
		}
		var a map[string]any
		if err := json.Unmarshal(args, &a); err != nil || queue != "outbox" {
			t.Fatalf("args %s in queue %q: %v", args, queue, err)
		}
		got = append(got, a)
	}
	if rows.Err() != nil {
		t.Fatal(rows.Err())
	}
	if len(got) != 2 || got[0][idemriver.OutboxIDField] != "m-1" || got[1][idemriver.OutboxIDField] != "m-2" ||
		got[0]["attempt_id"] != "pa_1" || got[0]["amount"] != 5.0 {
		t.Fatalf("jobs %v, want m-1 once and m-2, each with the payload's fields", got)
	}
	if err := pub.Publish(ctx, outbox.Message{ID: "m-3", Topic: "charge", Payload: []byte(`[1]`)}); err == nil {
		t.Error("a payload that is not a JSON object was inserted")
	}
}

// Package schemakeys exercises inserts judged by the unique keys the project's migrations // want package:"has effects"
// declare (db/migrations: orders.external_id is unique, events and payments have only a
// generated key, receipts are keyed by order and line), and an audit table they do not
// declare, which keeps the judgement of its statement alone.
package schemakeys

import (
	"context"
	"database/sql"
	"errors"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgconn"
)

var db *sql.DB

// RecordOrder inserts by the order's external id, which is unique: a redelivery fails on
// the key, and the handler returns that error, so the job retries until it is dead.
func RecordOrder(ctx context.Context, t *asynq.Task) error { // want RecordOrder:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO orders (external_id, amount) VALUES ($1, $2)", string(t.Payload()), 10) // want `handler RecordOrder: SQL write not safe to repeat: INSERT without conflict handling into orders fails on a repeat: the unique key orders_external_id_key \(UNIQUE \(external_id\), \S*db/migrations/000001_orders.up.sql:3\) already holds the first run's row, so a redelivery gets a duplicate-key error every time and the job retries until it is dead; take that error as done, or add ON CONFLICT \(external_id\) DO NOTHING`
	return err
}

// RecordOrderOnce takes the key's duplicate error as done: protected.
func RecordOrderOnce(ctx context.Context, t *asynq.Task) error { // want RecordOrderOnce:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO orders (external_id, amount) VALUES ($1, $2)", string(t.Payload()), 10)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return nil
	}
	return err
}

// RecordOrderFresh binds a new external id on every run: the key never conflicts.
func RecordOrderFresh(ctx context.Context, t *asynq.Task) error { // want RecordOrderFresh:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO orders (external_id, amount) VALUES ($1, $2)", uuid.New().String(), 10) // want `handler RecordOrderFresh: SQL write not safe to repeat: INSERT without conflict handling into orders: a new row on every run \(made from uuid.New\)`
	return err
}

// AppendEvent inserts into a table keyed only by a generated id: a repeat adds a row.
func AppendEvent(ctx context.Context, t *asynq.Task) error { // want AppendEvent:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, `INSERT INTO "public"."events" (payload) VALUES ($1)`, t.Payload()) // want `handler AppendEvent: SQL write not safe to repeat: INSERT into events adds a row on every run: events has no unique key besides id, made anew on every insert \(\S*db/migrations/000001_orders.up.sql:7\)`
	return err
}

// AppendEventOnce's DO NOTHING has no key to conflict on: it absorbs nothing.
func AppendEventOnce(ctx context.Context, t *asynq.Task) error { // want AppendEventOnce:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO events (payload) VALUES ($1) ON CONFLICT DO NOTHING", t.Payload()) // want `handler AppendEventOnce: SQL write not safe to repeat: upsert \(ON CONFLICT\) absorbs nothing: events has no unique key besides id, made anew on every insert \(\S*db/migrations/000001_orders.up.sql:7\), so the conflict never happens`
	return err
}

// AppendEventByPayload names a conflict target that no key of events matches: the database
// rejects it on every run (the sql.conflict check's finding), so no repeat adds a row, and
// where the database has such a key after all, the upsert converges on it.
func AppendEventByPayload(ctx context.Context, t *asynq.Task) error { // want AppendEventByPayload:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO events (payload) VALUES ($1) ON CONFLICT (payload) DO NOTHING", t.Payload()) // want `ON CONFLICT \(payload\) matches no unique key of events`
	return err
}

// StoreEventByID supplies the id itself, from the job: the primary key enforces it, and
// DO NOTHING absorbs the repeat.
func StoreEventByID(ctx context.Context, t *asynq.Task) error { // want StoreEventByID:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO events (id, payload) VALUES ($1, $2) ON CONFLICT DO NOTHING", string(t.Payload()), t.Payload())
	return err
}

// RecordOrderIgnore: the orders key absorbs the repeat.
func RecordOrderIgnore(ctx context.Context, t *asynq.Task) error { // want RecordOrderIgnore:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO orders (external_id, amount) VALUES ($1, $2) ON CONFLICT DO NOTHING", string(t.Payload()), 10)
	return err
}

// Pay inserts into payments, whose order key a later migration dropped: the twin without
// the constraint.
func Pay(ctx context.Context, t *asynq.Task) error { // want Pay:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO payments (order_id, attempt) VALUES ($1, $2)", string(t.Payload()), 1) // want `handler Pay: SQL write not safe to repeat: INSERT into payments adds a row on every run: payments has no unique key besides id, made anew on every insert \(\S*db/migrations/000001_orders.up.sql:13\)`
	return err
}

// Receipt binds both columns of the receipts key (goose's Up section): enforced.
func Receipt(ctx context.Context, t *asynq.Task) error { // want Receipt:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO receipts (order_id, line) VALUES ($1, $2)", string(t.Payload()), 1) // want `handler Receipt: SQL write not safe to repeat: INSERT without conflict handling into receipts fails on a repeat: the unique key receipts_pkey \(PRIMARY KEY \(order_id, line\), \S*db/migrations/000003_receipts.sql:5\)`
	return err
}

// Audit writes a table the schema does not declare: judged by its statement alone.
func Audit(ctx context.Context, t *asynq.Task) error { // want Audit:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO audit (line) VALUES ($1)", string(t.Payload())) // want `handler Audit: SQL write not safe to repeat: INSERT without conflict handling \(Audit`
	return err
}

// AppendEventChecked takes a duplicate-key error as done, but events has no key a repeat
// could conflict on: the check never fires, and the insert stays reported.
func AppendEventChecked(ctx context.Context, t *asynq.Task) error { // want AppendEventChecked:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO events (payload) VALUES ($1)", t.Payload()) // want `handler AppendEventChecked: SQL write not safe to repeat: INSERT into events adds a row on every run`
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return nil
	}
	return err
}

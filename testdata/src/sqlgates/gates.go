// Package sqlgates exercises the state gates an application writes itself: a conditional // want package:"has effects" package:`retries asynq:order:created=unset`
// UPDATE, DELETE or INSERT ... DO NOTHING whose affected-row count (or RETURNING row) is
// checked with an early return claims the job, as a Redis SETNX does (the effects after it
// are claimed, at most once, and not reported; their facts say so); a row locked with
// SELECT ... FOR UPDATE, checked and written in one transaction, guards what commits with
// it; and an INSERT whose unique-violation error is taken as success.
package sqlgates

import (
	"context"
	"database/sql"
	"errors"
	"log"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"sqlgates/repo"
)

var (
	pool   *pgxpool.Pool
	db     *sql.DB
	client *asynq.Client
	orders *repo.Repo
)

func notify(id string) error {
	_, err := http.Post("https://hooks.example.com/orders", "text/plain", strings.NewReader(id))
	return err
}

// NotifyOnce claims the notification with a conditional UPDATE and returns when an earlier
// delivery made it: the POST after it runs at most once.
func NotifyOnce(ctx context.Context, t *asynq.Task) error { // want NotifyOnce:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	tag, err := pool.Exec(ctx, "UPDATE orders SET notified_at = now() WHERE id = $1 AND notified_at IS NULL", string(t.Payload()))
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return nil
	}
	return notify(string(t.Payload()))
}

// NotifyAlways runs the same UPDATE but only logs when it changed nothing: the POST runs on
// every delivery.
func NotifyAlways(ctx context.Context, t *asynq.Task) error { // want NotifyAlways:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	tag, err := pool.Exec(ctx, "UPDATE orders SET notified_at = now() WHERE id = $1 AND notified_at IS NULL", string(t.Payload()))
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		log.Print("already notified")
	}
	return notify(string(t.Payload())) // want `handler NotifyAlways: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(NotifyAlways -> sqlgates.notify -> http.Post\); 3 other handlers reach it too, through sqlgates.notify; missing: key, enforcement, partial \(\S.* do not commit together\)$`
}

// NotifyFirst posts before the gate: that effect runs on every delivery.
func NotifyFirst(ctx context.Context, t *asynq.Task) error { // want NotifyFirst:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	if err := notify(string(t.Payload())); err != nil { // want `handler NotifyFirst: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(NotifyFirst -> sqlgates.notify -> http.Post\); 3 other handlers reach it too, through sqlgates.notify; missing: key, enforcement, partial \(\S.* do not commit together\)$`
		return err
	}
	tag, err := pool.Exec(ctx, "UPDATE orders SET notified_at = now() WHERE id = $1 AND notified_at IS NULL", string(t.Payload()))
	if err != nil || tag.RowsAffected() == 0 {
		return err
	}
	return nil
}

// AbsoluteGate checks the count of an absolute UPDATE, which is 1 on every run: no claim.
func AbsoluteGate(ctx context.Context, t *asynq.Task) error { // want AbsoluteGate:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	tag, err := pool.Exec(ctx, "UPDATE orders SET notified_at = now() WHERE id = $1", string(t.Payload()))
	if err != nil || tag.RowsAffected() == 0 {
		return err
	}
	return notify(string(t.Payload())) // want `handler AbsoluteGate: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(AbsoluteGate -> sqlgates.notify -> http.Post\); 3 other handlers reach it too, through sqlgates.notify; missing: key, enforcement, partial \(\S.* do not commit together\)$`
}

// Republish takes the outbox row with DELETE ... RETURNING before enqueueing it again.
func Republish(ctx context.Context, t *asynq.Task) error { // want Republish:`effects publish:claimed\(\(\*asynq.Client\).Enqueue\) sql.write:protected\(\(\*pgxpool.Pool\).QueryRow\)`
	var payload []byte
	err := pool.QueryRow(ctx, "DELETE FROM outbox WHERE id = $1 RETURNING payload", string(t.Payload())).Scan(&payload)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = client.Enqueue(asynq.NewTask("order:created", payload))
	return err
}

// CountGate reads database/sql's affected-row count through a variable.
func CountGate(ctx context.Context, t *asynq.Task) error { // want CountGate:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	res, err := db.ExecContext(ctx, "INSERT INTO processed (event_id) VALUES ($1) ON CONFLICT DO NOTHING", string(t.Payload()))
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n < 1 {
		return nil
	}
	return notify(string(t.Payload()))
}

// ConstantGate claims one row for every job: the first job turns all the others away.
func ConstantGate(ctx context.Context, t *asynq.Task) error { // want ConstantGate:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	tag, err := pool.Exec(ctx, "UPDATE jobs SET done = true WHERE name = 'nightly' AND NOT done")
	if err != nil || tag.RowsAffected() == 0 {
		return err
	}
	return notify(string(t.Payload())) // want `handler ConstantGate: HTTP POST .*; the conditional UPDATE gate at gates.go:116 guards nothing: its statement names the same rows for every job.*; missing: key, enforcement, partial \(\S.* do not commit together\)$`
}

// HelperGate checks what a repository's conditional UPDATE reports (through its fact).
func HelperGate(ctx context.Context, t *asynq.Task) error { // want HelperGate:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	ok, err := orders.MarkNotified(ctx, string(t.Payload()))
	if err != nil {
		return err
	}
	if !ok {
		return nil
	}
	return notify(string(t.Payload()))
}

// TouchGate checks a helper whose UPDATE is absolute: its result claims nothing.
func TouchGate(ctx context.Context, t *asynq.Task) error { // want TouchGate:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*pgxpool.Pool\).Exec\)`
	if ok, err := orders.Touch(ctx, string(t.Payload())); err != nil || !ok {
		return err
	}
	return notify(string(t.Payload())) // want `handler TouchGate: HTTP POST .* \(TouchGate -> sqlgates.notify -> http.Post\); 3 other handlers reach it too, through sqlgates.notify; missing: key, enforcement, partial \(\S.* do not commit together\)$`
}

// SqlcGate takes the outbox row through a generated :one query: pgx.ErrNoRows means an
// earlier delivery took it.
func SqlcGate(ctx context.Context, t *asynq.Task) error { // want SqlcGate:`effects publish:claimed\(\(\*asynq.Client\).Enqueue\)`
	q := repo.New(pool)
	payload, err := q.ClaimOutbox(ctx, string(t.Payload()))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	} else if err != nil {
		return err
	}
	_, err = client.Enqueue(asynq.NewTask("order:created", []byte(payload)))
	return err
}

// Package bookkeeping holds statements that write only what a repeat may write again: a // want package:"has effects"
// count of attempts, and the rows a claim in the same statement returned.
package bookkeeping

import (
	"context"
	"database/sql"
	"strconv"

	"github.com/hibiken/asynq"
)

var db *sql.DB

// SendQueuedEmail takes its email job and counts the attempt in the same statement: the
// claim lets a job already processing in again (a crashed attempt is retried), and each
// run is one more attempt, which attempt_count says truly.
func SendQueuedEmail(ctx context.Context, t *asynq.Task) error { // want SendQueuedEmail:`effects sql.write:protected\(\(\*sql.DB\).QueryRowContext\)`
	id, _ := strconv.ParseInt(string(t.Payload()), 10, 64)
	var to string
	return db.QueryRowContext(ctx, `UPDATE email_jobs SET status = 'processing', attempt_count = attempt_count + 1
		WHERE id = $1 AND status IN ('pending', 'processing') RETURNING recipient`, id).Scan(&to)
}

// RetryDelivery counts its attempts and charges a fee in one statement: the fee is added
// again on every run.
func RetryDelivery(ctx context.Context, t *asynq.Task) error { // want RetryDelivery:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, `UPDATE deliveries SET send_attempts = send_attempts + 1, fees = fees + 5 WHERE id = $1`, t.Payload()) // want `handler RetryDelivery: SQL write not safe to repeat: relative UPDATE of fees`
	return err
}

const expireAttempt = `WITH expired AS (
	UPDATE attempts SET status = 'expired' WHERE id = $1 AND status = 'running' RETURNING id, ticket_id
)
INSERT INTO ticket_events (ticket_id, attempt_id, type)
SELECT e.ticket_id, e.id, 'expired' FROM expired e`

// ExpireAttempt expires a running attempt and records the event in one statement: the
// event rows are those the claim returned, and a repeat's claim returns none.
func ExpireAttempt(ctx context.Context, t *asynq.Task) error { // want ExpireAttempt:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, expireAttempt, t.Payload())
	return err
}

const touchAttempt = `WITH touched AS (
	UPDATE attempts SET status = 'expired' WHERE id = $1 RETURNING id, ticket_id
)
INSERT INTO ticket_events (ticket_id, attempt_id, type)
SELECT e.ticket_id, e.id, 'expired' FROM touched e`

// TouchAttempt records an event for whatever attempt it touched: its update returns the row
// on every run, and the event is added again.
func TouchAttempt(ctx context.Context, t *asynq.Task) error { // want TouchAttempt:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, touchAttempt, t.Payload()) // want `handler TouchAttempt: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

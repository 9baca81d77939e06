package statements

import (
	"context"
	"strconv"

	"github.com/hibiken/asynq"
)

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

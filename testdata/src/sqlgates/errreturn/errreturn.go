// Package errreturn claims a job with a conditional update whose RETURNING row is missing // want package:"has effects"
// on a repeat, checked only with `if err != nil`: the no-rows error leaves before the
// effects after it, so they are claimed (and a repeat fails with that error).
package errreturn

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hibiken/asynq"

	"sqlgates/errreturn/db"
)

var store *db.Store

// RefundFailed alerts once, after the refund moved to failed.
func RefundFailed(ctx context.Context, t *asynq.Task) error { // want RefundFailed:`effects sql.write:claimed\(\(db.DBTX\).Exec\)`
	id, _ := strconv.ParseInt(string(t.Payload()), 10, 64)
	_, err := store.UpdateRefundToFailed(ctx, id)
	if err != nil {
		return fmt.Errorf("update refund to failed: %w", err)
	}
	return store.InsertAlert(ctx, id, "critical")
}

// RefundTouched moves the refund whatever its status: the update returns its row on every
// delivery, and the alert repeats.
func RefundTouched(ctx context.Context, t *asynq.Task) error { // want RefundTouched:`effects sql.write:unprotected\(\(db.DBTX\).Exec\)`
	id, _ := strconv.ParseInt(string(t.Payload()), 10, 64)
	if _, err := store.TouchRefund(ctx, id); err != nil {
		return err
	}
	return store.InsertAlert(ctx, id, "critical") // want `^handler RefundTouched: SQL write not safe to repeat: INSERT`
}

// RefundMarked makes the conditional update with no RETURNING: zero rows is no error, and
// the alert repeats.
func RefundMarked(ctx context.Context, t *asynq.Task) error { // want RefundMarked:`effects sql.write:unprotected\(\(db.DBTX\).Exec\)`
	id, _ := strconv.ParseInt(string(t.Payload()), 10, 64)
	if err := store.MarkRefundFailed(ctx, id); err != nil {
		return err
	}
	return store.InsertAlert(ctx, id, "critical") // want `^handler RefundMarked: SQL write not safe to repeat: INSERT`
}

// OrderTimeout cancels through the store's transaction, whose log row the cancel claims.
func OrderTimeout(ctx context.Context, t *asynq.Task) error { // want OrderTimeout:`effects sql.write:claimed\(\(db.DBTX\).Exec\)`
	id, _ := strconv.ParseInt(string(t.Payload()), 10, 64)
	if err := store.CancelOrderTx(ctx, id, "pending"); err != nil {
		return err
	}
	return store.InsertAlert(ctx, id, "info")
}

// giveUp moves the refund to failed: its error says whether this delivery did.
func giveUp(ctx context.Context, id int64) error {
	if _, err := store.UpdateRefundToFailed(ctx, id); err != nil {
		return fmt.Errorf("give up: %w", err)
	}
	return nil
}

// prepare gives up on a refund past its attempts, and claims nothing otherwise.
func prepare(ctx context.Context, id int64, attempts int) (bool, error) {
	if attempts >= 5 {
		return true, giveUp(ctx, id)
	}
	return false, nil
}

// RefundAttempt alerts after prepare: prepare's error reports a claim only on the branch
// that gives up, so a nil error claims nothing and the alert repeats.
func RefundAttempt(ctx context.Context, t *asynq.Task) error { // want RefundAttempt:`effects sql.write:unprotected\(\(db.DBTX\).Exec\)`
	id, _ := strconv.ParseInt(string(t.Payload()), 10, 64)
	done, err := prepare(ctx, id, len(t.Payload()))
	if err != nil {
		return err
	}
	if done {
		return nil
	}
	return store.InsertAlert(ctx, id, "info") // want `^handler RefundAttempt: SQL write not safe to repeat: INSERT`
}

// Package nested claims a refund with a conditional update made through the store's // want package:"has effects"
// interface, and leaves on the store's own not-found sentinel (ErrRecordNotFound, pgx's
// ErrNoRows under another name in another package): the decrement after it is claimed.
package nested

import (
	"context"
	"errors"
	"strconv"

	"github.com/hibiken/asynq"

	"sqlgates/nested/db"
)

var store db.Store

// RefundResult checks the sentinel inside the error branch.
func RefundResult(ctx context.Context, t *asynq.Task) error { // want RefundResult:`effects sql.write:claimed\(\(db.DBTX\).Exec\)`
	id, _ := strconv.ParseInt(string(t.Payload()), 10, 64)
	r, err := store.UpdateRefundOrderToSuccess(ctx, id)
	if err != nil {
		if errors.Is(err, db.ErrRecordNotFound) {
			return nil
		}
		return err
	}
	return store.AddPrepaid(ctx, id, -r.Amount)
}

// RefundFlat checks the sentinel first.
func RefundFlat(ctx context.Context, t *asynq.Task) error { // want RefundFlat:`effects sql.write:claimed\(\(db.DBTX\).Exec\)`
	id, _ := strconv.ParseInt(string(t.Payload()), 10, 64)
	r, err := store.UpdateRefundOrderToSuccess(ctx, id)
	if errors.Is(err, db.ErrRecordNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return store.AddPrepaid(ctx, id, -r.Amount)
}

// RefundTouched sets the status whatever it was: the update finds its row on every
// delivery, and the decrement repeats.
func RefundTouched(ctx context.Context, t *asynq.Task) error { // want RefundTouched:`effects sql.write:unprotected\(\(db.DBTX\).Exec\)`
	id, _ := strconv.ParseInt(string(t.Payload()), 10, 64)
	r, err := store.TouchRefundOrder(ctx, id)
	if errors.Is(err, db.ErrRecordNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return store.AddPrepaid(ctx, id, -r.Amount) // want `^handler RefundTouched: SQL write not safe to repeat: relative UPDATE of prepaid_amount`
}

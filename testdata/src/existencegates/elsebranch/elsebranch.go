// Package elsebranch creates a payment in the last branch of a lookup's else-if chain, // want package:"has effects"
// which runs only when the lookup by the job's key found nothing.
package elsebranch

import (
	"context"
	"errors"
	"fmt"

	"github.com/hibiken/asynq"

	"existencegates/repo"
)

var payments *repo.Store

// Refund reuses the payment an earlier delivery made, fails on a lookup error, and
// creates one only when none is found: claimed (checked first).
func Refund(ctx context.Context, t *asynq.Task) error { // want Refund:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	existing, findErr := payments.GetByOrderID(ctx, orderID)
	if findErr == nil {
		if existing.Status == repo.StatusCaptured {
			return nil
		}
	} else if !errors.Is(findErr, repo.ErrNotFound) {
		return fmt.Errorf("check existing payment: %w", findErr)
	} else {
		if err := payments.Create(ctx, orderID); err != nil {
			return err
		}
	}
	return nil
}

// RefundOther looks up another order's payment: its absence says nothing of this job.
func RefundOther(ctx context.Context, t *asynq.Task) error { // want RefundOther:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	_, findErr := payments.GetByOrderID(ctx, "default")
	if findErr == nil {
		return nil
	} else if !errors.Is(findErr, repo.ErrNotFound) {
		return findErr
	} else {
		return payments.Create(ctx, orderID) // want `^handler RefundOther: SQL write not safe to repeat`
	}
}

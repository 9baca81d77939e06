// Package statusbranch charges inside a branch that runs only while the payment a lookup // want package:"has effects"
// by the job's key found is not yet in the status the branch writes, or carries that in a
// flag to a later branch: a redelivery after the write skips the branch.
package statusbranch

import (
	"context"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"

	"existencegates/repo"
)

var payments *repo.Store

func charge(orderID string) error {
	_, err := http.Post("https://pay.example.com/charges", "text/plain", strings.NewReader(orderID))
	return err
}

// Capture charges only while the payment is not captured, after writing captured.
func Capture(ctx context.Context, t *asynq.Task) error { // want Capture:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	p, err := payments.GetByOrderID(ctx, orderID)
	if err != nil {
		return err
	}
	if p.Status != repo.StatusCaptured {
		if err := payments.SetStatus(ctx, orderID, repo.StatusCaptured); err != nil {
			return err
		}
		return charge(orderID)
	}
	return nil
}

// Transition writes processing by a mark call that names it, and charges later behind a
// flag set after the write.
func Transition(ctx context.Context, t *asynq.Task) error { // want Transition:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	p, err := payments.GetByOrderID(ctx, orderID)
	if err != nil {
		return err
	}
	transitioned := false
	if p.Status != "processing" {
		if err := payments.MarkProcessing(ctx, orderID); err != nil {
			return err
		}
		transitioned = true
	}
	if transitioned && orderID != "" {
		return charge(orderID)
	}
	return nil
}

// Unwritten charges while the payment is not captured but never writes captured: every
// redelivery enters the branch.
func Unwritten(ctx context.Context, t *asynq.Task) error { // want Unwritten:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	p, err := payments.GetByOrderID(ctx, orderID)
	if err != nil {
		return err
	}
	if p.Status != repo.StatusCaptured {
		if err := payments.MarkProcessing(ctx, orderID); err != nil {
			return err
		}
		return charge(orderID) // want `^handler Unwritten: HTTP POST without an Idempotency-Key header`
	}
	return nil
}

// FlagBefore sets its flag before the write: a crash between them leaves the flag
// saying nothing, and the charge behind it is not guarded.
func FlagBefore(ctx context.Context, t *asynq.Task) error { // want FlagBefore:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	p, err := payments.GetByOrderID(ctx, orderID)
	if err != nil {
		return err
	}
	due := false
	if p.Status != repo.StatusCaptured {
		due = true
		if err := payments.SetStatus(ctx, orderID, repo.StatusCaptured); err != nil {
			return err
		}
	}
	if due {
		return charge(orderID) // want `^handler FlagBefore: HTTP POST without an Idempotency-Key header`
	}
	return nil
}

// Package existencegates exercises the existence check (read-before-write): a lookup by the // want package:"has effects"
// job's key whose finding returns early turns a redelivery away once what it looks up is
// written, so the effects after it are claimed and not reported; so does a status check of
// the record found, when the code then writes that status. A lookup that must find
// something, one by a constant, one whose finding does not return and a status the code
// never writes guard nothing.
package existencegates

import (
	"context"
	"errors"
	"log"
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

// Checked returns when the order already has a payment.
func Checked(ctx context.Context, t *asynq.Task) error { // want Checked:`effects http.write:claimed\(http.Post\) sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	existing, err := payments.GetByOrderID(ctx, orderID)
	if err != nil && !errors.Is(err, repo.ErrNotFound) {
		return err
	}
	if existing != nil {
		return nil // an earlier delivery made it
	}
	if err := payments.Create(ctx, orderID); err != nil {
		return err
	}
	return charge(orderID)
}

// Processed asks whether the order was handled, and returns when it was.
func Processed(ctx context.Context, t *asynq.Task) error { // want Processed:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	done, err := payments.IsProcessed(ctx, orderID)
	if err != nil {
		return err
	}
	if done {
		return nil
	}
	return payments.Create(ctx, orderID)
}

// Captured returns when the payment already has the status it then writes.
func Captured(ctx context.Context, t *asynq.Task) error { // want Captured:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	p, err := payments.GetByOrderID(ctx, orderID)
	if err != nil {
		return err
	}
	if p.Status == repo.StatusCaptured {
		return nil
	}
	if err := payments.SetStatus(ctx, orderID, repo.StatusCaptured); err != nil {
		return err
	}
	return charge(orderID)
}

// CapturedOnly charges while the payment is captured and never changes it: every
// redelivery charges again.
func CapturedOnly(ctx context.Context, t *asynq.Task) error { // want CapturedOnly:`effects http.write:unprotected\(http.Post\)`
	orderID := string(t.Payload())
	p, err := payments.GetByOrderID(ctx, orderID)
	if err != nil {
		return err
	}
	if p.Status == repo.StatusCaptured {
		return nil
	}
	return charge(orderID) // want `^handler CapturedOnly: HTTP POST without an Idempotency-Key header`
}

// Pending goes on only from pending, and marks the payment processing first.
func Pending(ctx context.Context, t *asynq.Task) error { // want Pending:`effects http.write:claimed\(http.Post\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	status, err := payments.GetStatus(ctx, orderID)
	if err != nil {
		return err
	}
	if status != "pending" {
		return nil
	}
	if err := payments.MarkProcessing(ctx, orderID); err != nil {
		return err
	}
	return charge(orderID)
}

// PendingUnmarked goes on only from pending but never leaves it: every redelivery charges.
func PendingUnmarked(ctx context.Context, t *asynq.Task) error { // want PendingUnmarked:`effects http.write:unprotected\(http.Post\)`
	orderID := string(t.Payload())
	status, err := payments.GetStatus(ctx, orderID)
	if err != nil {
		return err
	}
	if status != "pending" {
		return nil
	}
	return charge(orderID) // want `^handler PendingUnmarked: HTTP POST without an Idempotency-Key header`
}

// PendingMarkedLate charges before it marks the payment: a crash between them charges
// again; the gate guards what follows the mark.
func PendingMarkedLate(ctx context.Context, t *asynq.Task) error { // want PendingMarkedLate:`effects http.write:unprotected\(http.Post\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	status, err := payments.GetStatus(ctx, orderID)
	if err != nil {
		return err
	}
	if status != "pending" {
		return nil
	}
	if err := charge(orderID); err != nil { // want `^handler PendingMarkedLate: HTTP POST without an Idempotency-Key header`
		return err
	}
	return payments.MarkProcessing(ctx, orderID)
}

// Fetched returns the lookup's error: no finding, so no gate.
func Fetched(ctx context.Context, t *asynq.Task) error { // want Fetched:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	if err := payments.FetchOrder(ctx, orderID); err != nil {
		return err
	}
	return payments.Create(ctx, orderID) // want `^handler Fetched: SQL write not safe to repeat`
}

// Unchecked has no lookup: reported.
func Unchecked(ctx context.Context, t *asynq.Task) error { // want Unchecked:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	return payments.Create(ctx, orderID) // want `^handler Unchecked: SQL write not safe to repeat`
}

// Required returns when the lookup finds nothing: what it found is no claim.
func Required(ctx context.Context, t *asynq.Task) error { // want Required:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	existing, err := payments.GetByOrderID(ctx, orderID)
	if existing == nil {
		return err
	}
	return payments.Create(ctx, orderID) // want `^handler Required: SQL write not safe to repeat`
}

// Shared looks up one constant key: every job shares it.
func Shared(ctx context.Context, t *asynq.Task) error { // want Shared:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	existing, _ := payments.GetByOrderID(ctx, "all")
	if existing != nil {
		return nil
	}
	return payments.Create(ctx, string(t.Payload())) // want `^handler Shared: SQL write not safe to repeat`
}

// Logged finds the payment but goes on.
func Logged(ctx context.Context, t *asynq.Task) error { // want Logged:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	orderID := string(t.Payload())
	if existing, _ := payments.GetByOrderID(ctx, orderID); existing != nil {
		log.Printf("payment %s exists", existing.ID)
	}
	return payments.Create(ctx, orderID) // want `^handler Logged: SQL write not safe to repeat`
}

// Package wrapfix: registrations that can be handed to the runtime middleware mechanically, // want package:"has effects"
// because the file imports the asynq adapter and exactly one middleware is in scope.
package wrapfix

import (
	"context"
	"database/sql"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/hibiken/asynq"

	"wrapfix/tasks"
)

var db *sql.DB

//idemlint:decisions partial=manual-review -- one write
func sendInvoice(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO invoices (id) VALUES ($1)", string(t.Payload())) // want `handler sendInvoice: SQL write not safe to repeat: INSERT without conflict handling .*; missing: key, enforcement$`
	return err
}

type Refunder struct{}

//idemlint:decisions partial=manual-review -- one write
func (Refunder) ProcessTask(ctx context.Context, t *asynq.Task) error { // want ProcessTask:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO refunds (id) VALUES ($1)", string(t.Payload())) // want `handler \(Refunder\).ProcessTask: SQL write not safe to repeat`
	return err
}

//idemlint:decisions partial=manual-review -- one write
func audit(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO audit (id) VALUES ($1)", string(t.Payload())) // want `handler audit: SQL write not safe to repeat`
	return err
}

func key(t *asynq.Task) (string, error) { return string(t.Payload()), nil }

func Register(mux *asynq.ServeMux) error { // want Register:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	mw, err := idempotency.New(key, idempotency.WithRetention(72*time.Hour))
	if err != nil {
		return err
	}
	mux.HandleFunc("invoice:send", sendInvoice)
	mux.Handle("refund", Refunder{})
	return nil
}

// Two middlewares in scope: which one to use is a decision, not mechanics. No fix.
func RegisterAudit(mux *asynq.ServeMux) error { // want RegisterAudit:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	fast, err := idempotency.New(key, idempotency.WithRetention(time.Hour))
	if err != nil {
		return err
	}
	slow, err := idempotency.New(key, idempotency.WithRetention(30*24*time.Hour))
	if err != nil {
		return err
	}
	mux.Handle("fast", idemasynq.Handler(fast, asynq.HandlerFunc(audit2)))
	mux.Handle("slow", idemasynq.Handler(slow, asynq.HandlerFunc(audit2)))
	mux.HandleFunc("audit", audit)
	return nil
}

func audit2(ctx context.Context, t *asynq.Task) error { return nil }

// A method of another package wired here, as main does: reported at the registration under
// a per-package driver, and wrapped there.
func RegisterWelcome(mux *asynq.ServeMux, h *tasks.Handlers) error { // want RegisterWelcome:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	mw, err := idempotency.New(key, idempotency.WithRetention(72*time.Hour))
	if err != nil {
		return err
	}
	mux.HandleFunc("welcome", h.HandleWelcome) // want `handler \(\*tasks.Handlers\).HandleWelcome: SQL write not safe to repeat: INSERT without conflict handling \(\(\*tasks.Handlers\).HandleWelcome -> \(\*sql.DB\).ExecContext\); missing: key, enforcement \(registered here\)`
	return nil
}

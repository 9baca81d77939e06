// Package tasks holds asynq handlers as methods with a handler's signature but not its // want package:"has effects"
// method name: only the package that registers them knows they are handlers.
package tasks

import (
	"bytes"
	"context"
	"database/sql"
	"net/http"

	"github.com/hibiken/asynq"
)

// Handlers is the set of task handlers.
type Handlers struct {
	DB *sql.DB
}

// HandleWelcome records a signup and adds the user to the CRM: two systems.
func (h *Handlers) HandleWelcome(ctx context.Context, t *asynq.Task) error { // want HandleWelcome:"effects http.write:unprotected\\(http.Post\\) sql.write:unprotected\\(\\(\\*sql.DB\\).ExecContext\\)"
	if _, err := h.DB.ExecContext(ctx, "INSERT INTO signups (payload) VALUES ($1)", t.Payload()); err != nil {
		return err
	}
	_, err := http.Post("https://crm.example.com/contacts", "application/json", bytes.NewReader(t.Payload()))
	return err
}

// HandleCharge books a charge.
func (h *Handlers) HandleCharge(ctx context.Context, t *asynq.Task) error { // want HandleCharge:"effects sql.write:unprotected\\(\\(\\*sql.DB\\).ExecContext\\)"
	_, err := h.DB.ExecContext(ctx, "INSERT INTO charges (payload) VALUES ($1)", t.Payload())
	return err
}

// HandleCount records a visit's day once: safe to repeat.
func (h *Handlers) HandleCount(ctx context.Context, t *asynq.Task) error { // want HandleCount:"effects sql.write:protected\\(\\(\\*sql.DB\\).ExecContext\\)"
	_, err := h.DB.ExecContext(ctx, "INSERT INTO visits (day, n) VALUES ($1, 1) ON CONFLICT (day) DO NOTHING", t.Payload())
	return err
}

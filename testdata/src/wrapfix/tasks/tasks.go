// Package tasks holds a handler as a method that only the package registering it knows is // want package:"has effects"
// one: its registration is wrapped where it is reported, in wrapfix.
package tasks

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"
)

// Handlers is the set of task handlers.
type Handlers struct{ DB *sql.DB }

// HandleWelcome records a signup.
func (h *Handlers) HandleWelcome(ctx context.Context, t *asynq.Task) error { // want HandleWelcome:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := h.DB.ExecContext(ctx, "INSERT INTO signups (payload) VALUES ($1)", t.Payload())
	return err
}

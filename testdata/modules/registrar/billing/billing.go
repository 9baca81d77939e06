// Package billing implements tasks.Handler without importing it.
package billing

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"
)

// Charges records a charge per task: a second run records it twice.
type Charges struct{ DB *sql.DB }

// Handle inserts the charge.
func (c Charges) Handle(ctx context.Context, t *asynq.Task) error {
	_, err := c.DB.ExecContext(ctx, "INSERT INTO charges (body) VALUES ($1)", t.Payload())
	return err
}

// Refunds is the twin: its insert does nothing on a second run.
type Refunds struct{ DB *sql.DB }

// Handle inserts the refund once.
func (r Refunds) Handle(ctx context.Context, t *asynq.Task) error {
	_, err := r.DB.ExecContext(ctx, "INSERT INTO refunds (id) VALUES ($1) ON CONFLICT DO NOTHING", t.Payload())
	return err
}

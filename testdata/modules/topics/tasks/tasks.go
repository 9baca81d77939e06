// Package tasks holds the task types of the topics module, the handlers of the tasks the
// jobs package enqueues, and a maker of one task.
package tasks

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/hibiken/asynq"
)

// The task types.
const (
	TypeReindex = "search:reindex"
	TypeWelcome = "email:welcome"
	TypeAudit   = "audit:"
	TypeExport  = "export:run"
)

// DB is the handlers' database.
var DB *sql.DB

type payload struct {
	ID string `json:"id"`
}

// NewReindexTask makes the task that reindexes one order: a publish of what it returns is
// a publish to TypeReindex.
func NewReindexTask(id string) (*asynq.Task, error) {
	b, err := json.Marshal(payload{ID: id})
	if err != nil {
		return nil, err
	}
	return asynq.NewTask(TypeReindex, b), nil
}

// HandleReindex rewrites the order's search row: safe to run again.
func HandleReindex(ctx context.Context, t *asynq.Task) error {
	var p payload
	if err := json.Unmarshal(t.Payload(), &p); err != nil {
		return err
	}
	_, err := DB.ExecContext(ctx, "INSERT INTO search (id, doc) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc", p.ID, t.Payload())
	return err
}

// HandleWelcome records a welcome mail to send: a second run records a second one.
func HandleWelcome(ctx context.Context, t *asynq.Task) error {
	_, err := DB.ExecContext(ctx, "INSERT INTO outgoing_mail (body) VALUES ($1)", t.Payload())
	return err
}

// HandleAudit marks the order audited: safe to run again.
func HandleAudit(ctx context.Context, t *asynq.Task) error {
	_, err := DB.ExecContext(ctx, "UPDATE orders SET audited = true WHERE id = $1", string(t.Payload()))
	return err
}

// Register hands the audit handler to the mux here, in its own package.
func Register(mux *asynq.ServeMux) {
	mux.HandleFunc(TypeAudit, HandleAudit)
}

// Package jobs declares the service's River jobs and their workers: a refresh that upserts
// (safe to run again on the same job) and a notification that inserts a row each time.
package jobs

import (
	"context"
	"database/sql"

	"github.com/riverqueue/river"
)

var db *sql.DB

// RefreshArgs asks for one extension's stats to be refreshed.
type RefreshArgs struct {
	Name string `json:"name"`
}

func (RefreshArgs) Kind() string { return "refresh" }

// RefreshWorker upserts the stats: a repeat converges.
type RefreshWorker struct {
	river.WorkerDefaults[RefreshArgs]
}

func (w *RefreshWorker) Work(ctx context.Context, job *river.Job[RefreshArgs]) error {
	_, err := db.ExecContext(ctx, `INSERT INTO stats (name, installs) VALUES ($1, 0)
		ON CONFLICT (name) DO UPDATE SET installs = EXCLUDED.installs`, job.Args.Name)
	return err
}

// NotifyArgs asks for a user to be notified.
type NotifyArgs struct {
	UserID string `json:"user_id"`
}

func (NotifyArgs) Kind() string { return "notify" }

// NotifyWorker inserts a notification row: a repeat adds another.
type NotifyWorker struct {
	river.WorkerDefaults[NotifyArgs]
}

func (w *NotifyWorker) Work(ctx context.Context, job *river.Job[NotifyArgs]) error {
	_, err := db.ExecContext(ctx, `INSERT INTO notifications (user_id) VALUES ($1)`, job.Args.UserID)
	return err
}

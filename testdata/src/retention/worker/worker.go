// Package worker wraps handlers in the runtime middleware with explicit retentions, which // want package:"has effects"
// are compared with the retry horizons of the jobs they serve.
package worker

import (
	"context"
	"database/sql"
	"time"

	"retention/tasks"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/hibiken/asynq"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

func taskKey(t *asynq.Task) (string, error) { return string(t.Payload()), nil }

func jobKey(j *rivertype.JobRow) (string, error) { return j.Kind, nil }

func deliver(ctx context.Context, t *asynq.Task) error { return nil }

func Register(mux *asynq.ServeMux) error {
	// Email tasks retry 10 times over at least 4h 18m: an hour is too short.
	short, err := idempotency.New(taskKey, idempotency.WithRetention(time.Hour)) // want `idempotency middleware retention 1h 0m is shorter than the retry horizon of its jobs \(asynq task "email:deliver", MaxRetry\(10\)\): their retries span at least 4h 18m, and a retry after the completion expired runs the job again; missing: ttl`
	if err != nil {
		return err
	}
	mux.Handle(tasks.TypeEmail, idemasynq.Handler(short, asynq.HandlerFunc(deliver)))

	// Registered for email only: the report task's longer horizon does not apply.
	day, err := idempotency.New(taskKey, idempotency.WithRetention(24*time.Hour))
	if err != nil {
		return err
	}
	mux.Handle(tasks.TypeEmail, idemasynq.Handler(day, asynq.HandlerFunc(deliver)))

	// Installed on the mux for the report task: its 25 retries span 20 days.
	all, err := idemasynq.New(tasks.TypeReport, taskKey, idempotency.WithRetention(7*24*time.Hour)) // want `retention 7d 0h is shorter than the retry horizon of its jobs \(asynq task "report:build", MaxRetry\(25\)\): their retries span at least 20d 9h`
	if err != nil {
		return err
	}
	mux.Use(all)

	// Long enough for everything.
	month, err := idemasynq.New(tasks.TypeReport, taskKey, idempotency.WithRetention(30*24*time.Hour))
	if err != nil {
		return err
	}
	mux.Use(month)

	// Scoped to the email task, whose 10 retries span about 4 hours: a day is enough,
	// though the report task's retries span 20 days.
	email, err := idemasynq.New(tasks.TypeEmail, taskKey, idempotency.WithRetention(24*time.Hour))
	if err != nil {
		return err
	}
	mux.Use(email)
	return nil
}

// River jobs: ExportArgs makes 5 attempts, spread over at least 5m 18s.
func RiverMiddleware() (*idempotency.Middleware[*rivertype.JobRow], error) {
	return idempotency.New(jobKey, idempotency.WithRetention(time.Minute)) // want `retention 1m is shorter than the retry horizon of its jobs \(River job tasks.ExportArgs, MaxAttempts 5\): their retries span at least 5m`
}

var db *sql.DB

// A declared ttl is checked against the retry horizon of the handler's own job.

//idemlint:decisions ttl=1h enforce=manual-review partial=manual-review -- reviewed // want `//idemlint:decisions ttl=1h 0m contradicts the code: sendEmail's retries span at least 4h 18m \(asynq task "email:deliver", MaxRetry\(10\)\)`
func sendEmail(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO sent (id) VALUES ($1)", string(t.Payload())) // want `handler sendEmail: SQL write not safe to repeat`
	return err
}

//idemlint:decisions ttl=7d enforce=manual-review partial=manual-review -- reviewed
func sendEmailWeek(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO sent (id) VALUES ($1)", string(t.Payload())) // want `handler sendEmailWeek: SQL write not safe to repeat`
	return err
}

func RegisterDeclared(mux *asynq.ServeMux) { // want RegisterDeclared:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	mux.HandleFunc(tasks.TypeEmail, sendEmail)
	mux.HandleFunc(tasks.TypeEmail, sendEmailWeek)
}

type ExportWorker struct {
	river.WorkerDefaults[tasks.ExportArgs]
}

//idemlint:decisions ttl=1m enforce=manual-review partial=manual-review -- reviewed // want `ttl=1m contradicts the code: \(\*ExportWorker\).Work's retries span at least 5m 18s \(River job tasks.ExportArgs, MaxAttempts 5\)`
func (w *ExportWorker) Work(ctx context.Context, job *river.Job[tasks.ExportArgs]) error { // want Work:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO exports (id) VALUES ($1)", job.Args.ID) // want `handler \(\*ExportWorker\).Work: SQL write not safe to repeat`
	return err
}

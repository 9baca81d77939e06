// Package worker wraps handlers in the runtime middleware with explicit retentions, which
// are compared with the retry horizons of the jobs they serve.
package worker

import (
	"context"
	"time"

	"retention/tasks"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/hibiken/asynq"
	"github.com/riverqueue/river/rivertype"
)

func taskKey(t *asynq.Task) (string, error) { return string(t.Payload()), nil }

func jobKey(j *rivertype.JobRow) (string, error) { return j.Kind, nil }

func deliver(ctx context.Context, t *asynq.Task) error { return nil }

func Register(mux *asynq.ServeMux) error {
	// Email tasks retry 10 times over at least 4h 18m: an hour is too short.
	short, err := idempotency.New(taskKey, idempotency.WithRetention(time.Hour)) // want `idempotency middleware retention 1h 0m is shorter than the retry horizon of asynq task "email:deliver" \(MaxRetry\(10\)\): its retries span at least 4h 18m, and a retry after the completion expired runs the job again; missing: ttl`
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

	// Installed for every task on the mux: the report task's 25 retries span 20 days.
	all, err := idemasynq.New(taskKey, idempotency.WithRetention(7*24*time.Hour)) // want `retention 7d 0h is shorter than the retry horizon of asynq task "report:build" \(MaxRetry\(25\)\): its retries span at least 20d 9h`
	if err != nil {
		return err
	}
	mux.Use(all)

	// Long enough for everything.
	month, err := idemasynq.New(taskKey, idempotency.WithRetention(30*24*time.Hour))
	if err != nil {
		return err
	}
	mux.Use(month)
	return nil
}

// River jobs: ExportArgs makes 5 attempts, spread over at least 5m 18s.
func RiverMiddleware() (*idempotency.Middleware[*rivertype.JobRow], error) {
	return idempotency.New(jobKey, idempotency.WithRetention(time.Minute)) // want `retention 1m is shorter than the retry horizon of River job tasks.ExportArgs \(MaxAttempts 5\): its retries span at least 5m`
}

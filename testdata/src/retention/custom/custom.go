// Package custom sets its own retry delays: its schedule is code, so retentions are not // want package:"has effects"
// compared with the default horizon.
package custom

import (
	"time"

	"retention/tasks"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/idemasynq"
	"github.com/hibiken/asynq"
)

var cfg = asynq.Config{RetryDelayFunc: func(n int, err error, t *asynq.Task) time.Duration { return time.Second }}

func Register(mux *asynq.ServeMux) error {
	mw, err := idemasynq.New(tasks.TypeEmail, func(t *asynq.Task) (string, error) { return tasks.TypeEmail, nil }, idempotency.WithRetention(time.Minute))
	if err != nil {
		return err
	}
	mux.Use(mw)
	return nil
}

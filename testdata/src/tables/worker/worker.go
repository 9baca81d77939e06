// Package worker registers the jobs package's table: each function it lists is a handler, // want package:"has effects"
// reported here, at the registration, under a per-package driver.
package worker

import (
	"context"

	"github.com/hibiken/asynq"

	"tables/jobs"
)

func wrap(run func(context.Context, []byte) error) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error { return run(ctx, t.Payload()) }
}

// Register hands every job of the table to the mux.
func Register(mux *asynq.ServeMux) {
	for _, j := range jobs.All {
		mux.HandleFunc(j.Name, wrap(j.Run)) // want `handler jobs.sendDigest: SQL write not safe to repeat: INSERT without conflict handling .*\(registered here\)`
	}
}

// Count ranges over the audit table without registering anything: no handler.
func Count() int {
	n := 0
	for _, j := range jobs.Audit {
		if j.Run != nil {
			n++
		}
	}
	return n
}

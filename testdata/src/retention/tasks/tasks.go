// Package tasks defines job types with retries. // want package:"has effects" package:`retries asynq:email:deliver=10 asynq:report:build=25 river:retention/tasks.ExportArgs=5`
//
// The asynq task types and River job args here carry their retry settings;
// the worker package, which wraps their handlers in the runtime middleware, sees them
// through a package fact.
package tasks

import (
	"github.com/hibiken/asynq"
	"github.com/riverqueue/river"
)

const (
	TypeEmail  = "email:deliver"
	TypeReport = "report:build"
)

func NewEmailTask(payload []byte) *asynq.Task { // want NewEmailTask:`makes\(github.com/hibiken/asynq: email:deliver\)`
	return asynq.NewTask(TypeEmail, payload, asynq.MaxRetry(10))
}

func EnqueueReport(c *asynq.Client) error { // want EnqueueReport:`effects publish:unprotected\(\(\*asynq.Client\).Enqueue\)`
	t := asynq.NewTask(TypeReport, nil)
	_, err := c.Enqueue(t, asynq.MaxRetry(25))
	return err
}

type ExportArgs struct{ ID string }

func (ExportArgs) Kind() string { return "export" }

func (ExportArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 5} }

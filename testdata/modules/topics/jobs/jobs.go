// Package jobs holds handlers that enqueue the tasks package's tasks.
package jobs

import (
	"context"

	"github.com/hibiken/asynq"

	"topics/tasks"
)

// Client enqueues the follow-up tasks.
var Client *asynq.Client

// HandleOrderPaid enqueues a reindex, made by the tasks package's maker: its consumer is
// safe to repeat, so a second enqueue only reindexes again.
func HandleOrderPaid(ctx context.Context, t *asynq.Task) error {
	task, err := tasks.NewReindexTask(string(t.Payload()))
	if err != nil {
		return err
	}
	_, err = Client.Enqueue(task)
	return err
}

// HandleSignup enqueues a welcome mail, whose consumer is not safe to repeat: reported.
func HandleSignup(ctx context.Context, t *asynq.Task) error {
	_, err := Client.Enqueue(asynq.NewTask(tasks.TypeWelcome, t.Payload()))
	return err
}

// HandleShipped enqueues an audit under the "audit:" pattern's handler (asynq's mux takes
// the longest prefix), safe to repeat.
func HandleShipped(ctx context.Context, t *asynq.Task) error {
	audit := asynq.NewTask(tasks.TypeAudit+"shipped", t.Payload())
	_, err := Client.EnqueueContext(ctx, audit)
	return err
}

// HandleExport enqueues a task type no handler of the program serves: reported.
func HandleExport(ctx context.Context, t *asynq.Task) error {
	_, err := Client.Enqueue(asynq.NewTask(tasks.TypeExport, t.Payload()))
	return err
}

// HandleNext enqueues a task whose type only run time knows: reported.
func HandleNext(ctx context.Context, t *asynq.Task) error {
	_, err := Client.Enqueue(asynq.NewTask(t.Type()+":next", t.Payload()))
	return err
}

// HandleInvite enqueues a signup, whose handler enqueues a welcome mail in turn: reported,
// with the signup handler's own reason, not the whole chain's.
func HandleInvite(ctx context.Context, t *asynq.Task) error {
	_, err := Client.Enqueue(asynq.NewTask("user:signup", t.Payload()))
	return err
}

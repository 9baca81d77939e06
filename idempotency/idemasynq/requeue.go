package idemasynq

import (
	"context"
	"errors"
	"fmt"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/hibiken/asynq"
)

// Enqueuer is what RequeueDeferred needs of a client: *asynq.Client has it.
type Enqueuer interface {
	EnqueueContext(ctx context.Context, task *asynq.Task, opts ...asynq.Option) (*asynq.TaskInfo, error)
}

// RequeueDeferred returns asynq middleware that keeps a deferred duplicate with no retry
// left from being archived. asynq (v0.26) archives a failed task whose retries are spent
// before it asks Config.IsFailure, so a duplicate deferred on its last attempt (a task
// enqueued with MaxRetry(0), or one whose retries real failures used up) would be archived,
// and, if the worker holding the key had crashed and never completes, the job would be lost.
// For such a deferral the middleware enqueues a copy of the task through client, to run after
// its RetryAfter (at least a second), and acknowledges the original. Deferrals with retries
// left go on through asynq's retry (see Configure), which keeps the task itself.
//
// Install it outside the idempotency middleware:
//
//	mux.Use(idemasynq.RequeueDeferred(client), mw)
//
// The copy is a new task (a new ID) with the original's type, payload, headers, queue and
// MaxRetry; asynq does not tell a handler the task's other options (Timeout, Deadline,
// Retention, Unique, Group), so the copy has the defaults. If the enqueue fails, the
// deferral's error is returned joined with the enqueue's, and asynq archives the task.
func RequeueDeferred(client Enqueuer) asynq.MiddlewareFunc {
	return func(next asynq.Handler) asynq.Handler {
		return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
			err := next.ProcessTask(ctx, t)
			var ip *idempotency.InProgressError
			if !errors.As(err, &ip) {
				return err
			}
			retried, ok1 := asynq.GetRetryCount(ctx)
			maxRetry, ok2 := asynq.GetMaxRetry(ctx)
			queue, ok3 := asynq.GetQueueName(ctx)
			if !ok1 || !ok2 || !ok3 || retried < maxRetry {
				return err // asynq retries it (or this is no asynq server's context)
			}
			copied := asynq.NewTaskWithHeaders(t.Type(), t.Payload(), t.Headers())
			// The enqueue must happen even when the task's own context is ending.
			if _, qerr := client.EnqueueContext(context.WithoutCancel(ctx), copied,
				asynq.Queue(queue), asynq.MaxRetry(maxRetry), asynq.ProcessIn(max(ip.RetryAfter, minRetryDelay))); qerr != nil {
				return errors.Join(err, fmt.Errorf("idemasynq: re-enqueueing the deferred duplicate, which has no retry left: %w", qerr))
			}
			return nil
		})
	}
}

package idemasynq

import (
	"context"
	"errors"
	"fmt"

	"github.com/hibiken/asynq"

	"github.com/chokaq/idemlint/idempotency/outbox"
)

// OutboxPublisher returns an outbox.Publisher that enqueues each outbox message as an asynq
// task: type msg.Topic, payload msg.Payload, headers msg.Headers, ID asynq.TaskID(msg.ID),
// and opts (a queue, MaxRetry, Retention). asynq refuses a second task with an ID it still
// holds (asynq.ErrTaskIDConflict), which the publisher takes as published: a relay that
// publishes a message again after a crash enqueues nothing new.
//
// asynq holds an ID while its task is pending, running or retrying, and after it completes
// only for its Retention (none by default): give the tasks an asynq.Retention at least as
// long as the relay can take to publish a message again (its batch's publish time plus the
// time to notice a crash), or a task completed before the repeat is enqueued again.
func OutboxPublisher(client Enqueuer, opts ...asynq.Option) outbox.Publisher {
	return outbox.PublisherFunc(func(ctx context.Context, msg outbox.Message) error {
		task := asynq.NewTaskWithHeaders(msg.Topic, msg.Payload, msg.Headers)
		_, err := client.EnqueueContext(ctx, task, append(opts[:len(opts):len(opts)], asynq.TaskID(msg.ID))...)
		if err == nil || errors.Is(err, asynq.ErrTaskIDConflict) || errors.Is(err, asynq.ErrDuplicateTask) {
			return nil
		}
		return fmt.Errorf("idemasynq: enqueueing outbox message %q: %w", msg.ID, err)
	})
}

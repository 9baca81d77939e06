package publish

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// Queue is an application's own client around asynq's.
type Queue struct{ inner *asynq.Client }

// EnqueueKeyed adds the task's ID to its callers' options: every task it enqueues is keyed
// by its type and payload.
func (q *Queue) EnqueueKeyed(ctx context.Context, t *asynq.Task, opts ...asynq.Option) error { // want EnqueueKeyed:`effects publish:protected\(\(\*asynq.Client\).EnqueueContext\)`
	id := fmt.Sprintf("%s:%x", t.Type(), t.Payload())
	_, err := q.inner.EnqueueContext(ctx, t, append(opts, asynq.TaskID(id))...)
	return err
}

// Send hands its callers' options to asynq: whether a task is keyed is the caller's.
func (q *Queue) Send(ctx context.Context, t *asynq.Task, opts ...asynq.Option) error { // want Send:`effects publish:unprotected\(\(\*asynq.Client\).EnqueueContext\)\[options from param 2\]`
	_, err := q.inner.EnqueueContext(ctx, t, opts...)
	return err
}

// Relay passes its own options on.
func (q *Queue) Relay(ctx context.Context, t *asynq.Task, opts ...asynq.Option) error { // want Relay:`effects publish:unprotected\(\(\*asynq.Client\).EnqueueContext\)\[options from param 2\]`
	return q.Send(ctx, t, opts...)
}

var queue *Queue

func ViaKeyedWrapper(ctx context.Context, t *asynq.Task) error { // want ViaKeyedWrapper:`effects publish:protected\(\(\*asynq.Client\).EnqueueContext\)`
	return queue.EnqueueKeyed(ctx, asynq.NewTask("receipt", t.Payload()))
}

func ViaWrapperWithID(ctx context.Context, t *asynq.Task) error { // want ViaWrapperWithID:`effects publish:protected\(\(\*asynq.Client\).EnqueueContext\)`
	return queue.Send(ctx, asynq.NewTask("receipt", t.Payload()), asynq.TaskID("receipt-"+t.Type()))
}

func ViaRelayWithUnique(ctx context.Context, t *asynq.Task) error { // want ViaRelayWithUnique:`effects publish:protected\(\(\*asynq.Client\).EnqueueContext\)`
	return queue.Relay(ctx, asynq.NewTask("receipt", t.Payload()), asynq.MaxRetry(3), asynq.TaskID("receipt-"+t.Type()))
}

func ViaWrapperNoID(ctx context.Context, t *asynq.Task) error { // want ViaWrapperNoID:`effects publish:unprotected\(\(\*asynq.Client\).EnqueueContext\)`
	return queue.Send(ctx, asynq.NewTask("receipt", t.Payload()), asynq.MaxRetry(3)) // want `handler ViaWrapperNoID: asynq task enqueued without a deduplication id \(ViaWrapperNoID -> \(\*publish.Queue\).Send -> \(\*asynq.Client\).EnqueueContext\); missing: key, enforcement`
}

func ViaWrapperRandomID(ctx context.Context, t *asynq.Task) error { // want ViaWrapperRandomID:`effects publish:unstable-key\(\(\*asynq.Client\).EnqueueContext\)`
	return queue.Send(ctx, asynq.NewTask("receipt", t.Payload()), asynq.TaskID(uuid.NewString())) // want `handler ViaWrapperRandomID: asynq task enqueued with a key that changes on every retry \(made from uuid.NewString\)`
}

// Package publish exercises the publish sinks: asynq enqueue with TaskID/Unique options and // want package:"has effects" package:`retries asynq:email=3 .* river:publish.DigestArgs=unique`
// River inserts with UniqueOpts.
package publish

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

var client *asynq.Client

func EnqueueNoID(ctx context.Context, t *asynq.Task) error { // want EnqueueNoID:`effects publish:unprotected\(\(\*asynq.Client\).Enqueue\)`
	_, err := client.Enqueue(asynq.NewTask("email", nil)) // want `handler EnqueueNoID: asynq task enqueued without a deduplication id \(EnqueueNoID -> \(\*asynq.Client\).Enqueue\); missing: key, enforcement`
	return err
}

func EnqueueWithID(ctx context.Context, t *asynq.Task) error { // want EnqueueWithID:`effects publish:protected\(\(\*asynq.Client\).EnqueueContext\)`
	_, err := client.EnqueueContext(ctx, asynq.NewTask("email", nil), asynq.TaskID("email-"+t.Type()), asynq.MaxRetry(3))
	return err
}

func EnqueueOptsSlice(ctx context.Context, t *asynq.Task) error { // want EnqueueOptsSlice:`effects publish:protected\(\(\*asynq.Client\).Enqueue\)`
	opts := []asynq.Option{asynq.Unique(time.Hour)}
	_, err := client.Enqueue(asynq.NewTask("email", nil), opts...)
	return err
}

func EnqueueRandomID(ctx context.Context, t *asynq.Task) error { // want EnqueueRandomID:`effects publish:unstable-key\(\(\*asynq.Client\).Enqueue\)`
	_, err := client.Enqueue(asynq.NewTask("email", nil), asynq.TaskID(uuid.NewString())) // want `handler EnqueueRandomID: asynq task enqueued with a key that changes on every retry \(made from uuid.NewString\)`
	return err
}

type FollowUpArgs struct{ OrderID string }

func (FollowUpArgs) Kind() string { return "follow_up" }

var rc *river.Client[pgx.Tx]

func InsertPlain(ctx context.Context, t *asynq.Task) error { // want InsertPlain:`effects publish:unprotected\(\(\*river.Client\).Insert\)`
	_, err := rc.Insert(ctx, FollowUpArgs{}, nil) // want `handler InsertPlain: River job inserted without an idempotency key`
	return err
}

func InsertUnique(ctx context.Context, t *asynq.Task) error { // want InsertUnique:`effects publish:protected\(\(\*river.Client\).Insert\)`
	_, err := rc.Insert(ctx, FollowUpArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}})
	return err
}

// A closure sees the enclosing handler's parameters: the ID comes from the task.
func EnqueueInClosure(ctx context.Context, t *asynq.Task) error { // want EnqueueInClosure:`effects publish:protected\(\(\*asynq.Client\).Enqueue\)`
	send := func() error {
		_, err := client.Enqueue(asynq.NewTask("email", nil), asynq.TaskID("email-"+t.Type()))
		return err
	}
	return send()
}

// A batch insert is guarded only when every job in it is unique.
func InsertManyUnique(ctx context.Context, t *asynq.Task) error { // want InsertManyUnique:`effects publish:protected\(\(\*river.Client\).InsertMany\)`
	_, err := rc.InsertMany(ctx, []river.InsertManyParams{
		{Args: FollowUpArgs{}, InsertOpts: &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}},
		{Args: FollowUpArgs{}, InsertOpts: &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}},
	})
	return err
}

func InsertManyMixed(ctx context.Context, t *asynq.Task) error { // want InsertManyMixed:`effects publish:unprotected\(\(\*river.Client\).InsertMany\)`
	_, err := rc.InsertMany(ctx, []river.InsertManyParams{ // want `handler InsertManyMixed: River jobs inserted without an idempotency key \(element 2 of 2 of the batch has none\)`
		{Args: FollowUpArgs{}, InsertOpts: &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}},
		{Args: FollowUpArgs{}},
	})
	return err
}

func InsertManyTxPlain(ctx context.Context, t *asynq.Task) error { // want InsertManyTxPlain:`effects publish:unprotected\(\(\*river.Client\).InsertManyTx\)`
	var tx pgx.Tx
	_, err := rc.InsertManyTx(ctx, tx, []river.InsertManyParams{{Args: FollowUpArgs{}}}) // want `handler InsertManyTxPlain: River jobs inserted without an idempotency key`
	return err
}

// Package opthelpers holds a scheduler that gives its enqueues their key option through a // want package:"has effects" package:`retries asynq:prune=unset asynq:sync=unset`
// helper of its own (func unique(ttl) asynq.Option { return asynq.Unique(ttl) }, a task
// id made from the helper's parameter), through the service's enqueue wrapper that hands its
// options on. A helper that returns another option (MaxRetry) keys nothing, and one that
// names the task anew on every call gives a key that changes on every retry.
package opthelpers

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// Client is the service's enqueue wrapper.
type Client struct{ c *asynq.Client }

// Enqueue enqueues a task with its caller's options.
func (q *Client) Enqueue(task *asynq.Task, opts ...asynq.Option) error { // want Enqueue:`effects publish:unprotected\(\(\*asynq.Client\).Enqueue\)\[options from param 1\]`
	_, err := q.c.Enqueue(task, opts...)
	return err
}

var enq *Client

// unique is asynq's uniqueness window.
func unique(ttl time.Duration) asynq.Option { return asynq.Unique(ttl) }

// taskID names the task by the source it syncs.
func taskID(source string) asynq.Option { return asynq.TaskID(source) }

// freshID names the task anew on every call.
func freshID() asynq.Option { return asynq.TaskID(uuid.NewString()) }

// defaultOpt is the scheduler's default option, held in a variable.
var defaultOpt = asynq.MaxRetry(3)

// standard returns the default option: no call it makes is a key option.
func standard() asynq.Option { return defaultOpt }

// retries is the scheduler's retry budget.
func retries() asynq.Option { return asynq.MaxRetry(3) }

// ScanPrune enqueues a prune of each source once per window.
func ScanPrune(ctx context.Context, t *asynq.Task) error { // want ScanPrune:`effects publish:protected\(\(\*asynq.Client\).Enqueue\)`
	return enq.Enqueue(asynq.NewTask("prune", t.Payload()), unique(time.Hour))
}

// ScanSync enqueues a sync named by its source.
func ScanSync(ctx context.Context, t *asynq.Task) error { // want ScanSync:`effects publish:protected\(\(\*asynq.Client\).Enqueue\)`
	return enq.Enqueue(asynq.NewTask("sync", t.Payload()), taskID("sync:"+string(t.Payload())))
}

// ScanRetried gives only a retry budget.
func ScanRetried(ctx context.Context, t *asynq.Task) error { // want ScanRetried:`effects publish:unprotected\(\(\*asynq.Client\).Enqueue\)`
	return enq.Enqueue(asynq.NewTask("sync", t.Payload()), retries()) // want `handler ScanRetried: asynq task enqueued without a deduplication id`
}

// ScanFresh names the task anew: a redelivery enqueues it again.
func ScanFresh(ctx context.Context, t *asynq.Task) error { // want ScanFresh:`effects publish:unstable-key\(\(\*asynq.Client\).Enqueue\)`
	return enq.Enqueue(asynq.NewTask("sync", t.Payload()), freshID()) // want `handler ScanFresh: asynq task enqueued with a key that changes on every retry`
}

// ScanStandard gives the default option only.
func ScanStandard(ctx context.Context, t *asynq.Task) error { // want ScanStandard:`effects publish:unprotected\(\(\*asynq.Client\).Enqueue\)`
	return enq.Enqueue(asynq.NewTask("sync", t.Payload()), standard()) // want `handler ScanStandard: asynq task enqueued without a deduplication id`
}

// Package taskopts holds asynq enqueues whose key option is given to asynq.NewTask, which // want package:"has effects" package:`retries asynq:receipt=unset asynq:refund=unset asynq:settle=unset`
// applies it when the task is enqueued: inline, and through a distributor whose
// DistributeX(ctx, payload, opts ...asynq.Option) makes the task with its callers' options
// and hands it to an enqueueTask helper. A caller that gives asynq.Unique keys the enqueue;
// one that gives only MaxRetry, and a task made with no options, stay reported.
package taskopts

import (
	"context"
	"time"

	"github.com/hibiken/asynq"
)

// Distributor enqueues the service's tasks.
type Distributor struct{ client *asynq.Client }

// enqueueTask enqueues a task made by the caller.
func (d *Distributor) enqueueTask(ctx context.Context, task *asynq.Task) (*asynq.TaskInfo, error) { // want enqueueTask:`effects publish:unprotected\(\(\*asynq.Client\).EnqueueContext\)\[options from param 1\]`
	return d.client.EnqueueContext(ctx, task)
}

// DistributeSettle makes the settle task with its callers' options.
func (d *Distributor) DistributeSettle(ctx context.Context, payload []byte, opts ...asynq.Option) error { // want DistributeSettle:`effects publish:unprotected\(\(\*asynq.Client\).EnqueueContext\)\[options from param 2\]`
	task := asynq.NewTask("settle", payload, opts...)
	_, err := d.enqueueTask(ctx, task)
	return err
}

var d *Distributor

// SettleUnique gives a uniqueness window to the task.
func SettleUnique(ctx context.Context, t *asynq.Task) error { // want SettleUnique:`effects publish:protected\(\(\*asynq.Client\).EnqueueContext\)`
	return d.DistributeSettle(ctx, t.Payload(), asynq.MaxRetry(5), asynq.Unique(time.Hour))
}

// SettlePlain gives no key.
func SettlePlain(ctx context.Context, t *asynq.Task) error { // want SettlePlain:`effects publish:unprotected\(\(\*asynq.Client\).EnqueueContext\)`
	return d.DistributeSettle(ctx, t.Payload(), asynq.MaxRetry(5)) // want `handler SettlePlain: asynq task enqueued without a deduplication id`
}

// Inline makes the task with its id and enqueues it.
func Inline(ctx context.Context, t *asynq.Task) error { // want Inline:`effects publish:protected\(\(\*asynq.Client\).EnqueueContext\)`
	task := asynq.NewTask("receipt", t.Payload(), asynq.TaskID("receipt-"+string(t.Payload())))
	_, err := d.client.EnqueueContext(ctx, task)
	return err
}

// InlineThroughHelper makes the task with its id and hands it to the helper.
func InlineThroughHelper(ctx context.Context, t *asynq.Task) error { // want InlineThroughHelper:`effects publish:protected\(\(\*asynq.Client\).EnqueueContext\)`
	task := asynq.NewTask("receipt", t.Payload(), asynq.TaskID("receipt-"+string(t.Payload())))
	_, err := d.enqueueTask(ctx, task)
	return err
}

// NoOptions makes the task with none.
func NoOptions(ctx context.Context, t *asynq.Task) error { // want NoOptions:`effects publish:unprotected\(\(\*asynq.Client\).EnqueueContext\)`
	_, err := d.enqueueTask(ctx, asynq.NewTask("receipt", t.Payload())) // want `handler NoOptions: asynq task enqueued without a deduplication id`
	return err
}

// enqueueWithOptions enqueues a task made by the caller, with options of its callers.
func (d *Distributor) enqueueWithOptions(ctx context.Context, task *asynq.Task, opts ...asynq.Option) error { // want enqueueWithOptions:`effects publish:unprotected\(\(\*asynq.Client\).EnqueueContext\)\[options from param 2\]`
	_, err := d.client.EnqueueContext(ctx, task, opts...)
	return err
}

// DistributeRefund makes the refund task with its callers' options and enqueues it with
// none of its own.
func (d *Distributor) DistributeRefund(ctx context.Context, payload []byte, opts ...asynq.Option) error { // want DistributeRefund:`effects publish:unprotected\(\(\*asynq.Client\).EnqueueContext\)\[options from param 2\]`
	task := asynq.NewTask("refund", payload, opts...)
	return d.enqueueWithOptions(ctx, task)
}

// RefundUnique gives the refund task a uniqueness window.
func RefundUnique(ctx context.Context, t *asynq.Task) error { // want RefundUnique:`effects publish:protected\(\(\*asynq.Client\).EnqueueContext\)`
	return d.DistributeRefund(ctx, t.Payload(), asynq.Unique(time.Hour))
}

// RefundPlain gives it none.
func RefundPlain(ctx context.Context, t *asynq.Task) error { // want RefundPlain:`effects publish:unprotected\(\(\*asynq.Client\).EnqueueContext\)`
	return d.DistributeRefund(ctx, t.Payload()) // want `handler RefundPlain: asynq task enqueued without a deduplication id`
}

// InlineThroughOptionsHelper makes the task with its id and hands it to the helper that
// takes options, giving none.
func InlineThroughOptionsHelper(ctx context.Context, t *asynq.Task) error { // want InlineThroughOptionsHelper:`effects publish:protected\(\(\*asynq.Client\).EnqueueContext\)`
	task := asynq.NewTask("receipt", t.Payload(), asynq.TaskID("receipt-"+string(t.Payload())))
	return d.enqueueWithOptions(ctx, task)
}

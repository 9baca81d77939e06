// Package drains exercises River workers that drain a backlog by chaining themselves: when // want package:"has effects" package:`retries river:github.com/riverqueue/river.JobArgs=unset river:publish/drains.BackfillArgs=unset`
// the batch came back full, the worker inserts a job of its own kind for the next one, at
// the insert or through a helper. A repeat starts a second lineage, which stops at its
// first short batch. Twins chain themselves whatever the batch, or chain another kind.
package drains

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

const batch = 100

var rc *river.Client[pgx.Tx]

func pending(ctx context.Context, n int) []string { return make([]string, n) }

// chain inserts the args its caller gives.
func chain(ctx context.Context, args river.JobArgs) {
	_, _ = rc.Insert(ctx, args, nil)
}

type BackfillArgs struct{}

func (BackfillArgs) Kind() string { return "backfill" }

type backfillWorker struct{}

// Work chains itself while its batches come back full.
func (backfillWorker) Work(ctx context.Context, job *river.Job[BackfillArgs]) error { // want Work:`effects publish:protected\(\(\*river.Client\).Insert\)$`
	ids := pending(ctx, batch)
	if len(ids) == batch && ctx.Err() == nil {
		_, err := rc.Insert(ctx, BackfillArgs{}, nil)
		return err
	}
	return nil
}

type ScanArgs struct{}

func (ScanArgs) Kind() string { return "scan" }

type scanWorker struct{}

// Work chains itself through the helper.
func (scanWorker) Work(ctx context.Context, job *river.Job[ScanArgs]) error { // want Work:`effects publish:protected\(\(\*river.Client\).Insert\)$`
	if ids := pending(ctx, batch); batch <= len(ids) {
		chain(ctx, ScanArgs{})
	}
	return nil
}

type PollArgs struct{}

func (PollArgs) Kind() string { return "poll" }

type pollWorker struct{}

// Work reschedules itself whatever it found: a repeat keeps two lineages polling forever.
func (pollWorker) Work(ctx context.Context, job *river.Job[PollArgs]) error { // want Work:`effects publish:unprotected\(\(\*river.Client\).Insert\)$`
	_ = pending(ctx, batch)
	chain(ctx, PollArgs{}) // want `handler \(pollWorker\).Work: River job inserted without an idempotency key`
	return nil
}

type notifyWorker struct{}

// Work inserts another kind when its batch came back full.
func (notifyWorker) Work(ctx context.Context, job *river.Job[BackfillArgs]) error { // want Work:`effects publish:unprotected\(\(\*river.Client\).Insert\)$`
	if len(pending(ctx, batch)) == batch {
		chain(ctx, PollArgs{}) // want `handler \(notifyWorker\).Work: River job inserted without an idempotency key`
	}
	return nil
}

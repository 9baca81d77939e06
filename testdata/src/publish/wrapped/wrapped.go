// Package wrapped holds River workers that insert follow-up jobs through the service's own // want package:"has effects" package:"retries river:publish/wrapped.DigestArgs=unique"
// wrapper (package jobs), which takes the args as river.JobArgs: the args type each worker
// passes decides. A unique one is deduplicated by River (no finding); one unique by period
// only is not.
package wrapped

import (
	"context"
	"time"

	"publish/jobs"

	"github.com/riverqueue/river"
)

// DigestArgs declares unique insertion by its args.
type DigestArgs struct{ AccountID string }

func (DigestArgs) Kind() string { return "digest" }

func (DigestArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// HourlyArgs is unique by period only.
type HourlyArgs struct{ AccountID string }

func (HourlyArgs) Kind() string { return "hourly" }

func (HourlyArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: time.Hour}}
}

type OrderArgs struct{ OrderID string }

func (OrderArgs) Kind() string { return "order" }

type WrappedUnique struct{ jobs jobs.Client }

func (w WrappedUnique) Work(ctx context.Context, job *river.Job[OrderArgs]) error { // want Work:`effects publish:protected\(\(\*river.Client\).Insert\)`
	return jobs.Add(ctx, rcAny, DigestArgs{AccountID: job.Args.OrderID})
}

type WrappedHourly struct{}

func (WrappedHourly) Work(ctx context.Context, job *river.Job[OrderArgs]) error { // want Work:`effects publish:unprotected\(\(\*river.Client\).Insert\)`
	return jobs.Add(ctx, rcAny, HourlyArgs{AccountID: job.Args.OrderID}) // want `handler \(WrappedHourly\).Work: River job inserted without an idempotency key \(\(WrappedHourly\).Work -> jobs.Add -> \(\*river.Client\).Insert\)`
}

// Through the wrapper's interface: the implementation's args parameter, the same.
func (w WrappedUnique) viaInterface(ctx context.Context) error { // want viaInterface:`effects publish:protected\(\(\*river.Client\).Insert\)`
	return w.jobs.AddJob(ctx, &DigestArgs{AccountID: "a"})
}

var rcAny *river.Client[any]

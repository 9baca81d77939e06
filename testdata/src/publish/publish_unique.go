package publish

import (
	"context"
	"database/sql"
	"time"

	"github.com/riverqueue/river"
)

// DigestArgs declares unique insertion by its args: River inserts no second digest for
// the same account while one is kept.
type DigestArgs struct{ AccountID string }

func (DigestArgs) Kind() string { return "digest" }

func (DigestArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// HourlyArgs is unique by period only: one job an hour whatever its args, which names no
// business key.
type HourlyArgs struct{ AccountID string }

func (HourlyArgs) Kind() string { return "hourly" }

func (HourlyArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: time.Hour}}
}

var ledger *sql.DB

type DigestWorker struct{}

// Work's job has a stable identity (its args), which answers the key; a retry of the same
// job after a crash between the insert and the return still inserts twice.
func (DigestWorker) Work(ctx context.Context, job *river.Job[DigestArgs]) error { // want Work:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := ledger.ExecContext(ctx, "INSERT INTO digests (account_id) VALUES ($1)", job.Args.AccountID) // want `handler \(DigestWorker\).Work: SQL write not safe to repeat: INSERT without conflict handling; River job publish.DigestArgs is inserted unique by its args \(UniqueOpts in its InsertOpts\), which answers the key but does not stop a retry of the job from repeating this \(\(DigestWorker\).Work -> \(\*sql.DB\).ExecContext\); missing: enforcement`
	return err
}

type HourlyWorker struct{}

// Work's job is unique by period only: no key.
func (HourlyWorker) Work(ctx context.Context, job *river.Job[HourlyArgs]) error { // want Work:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := ledger.ExecContext(ctx, "INSERT INTO digests (account_id) VALUES ($1)", job.Args.AccountID) // want `handler \(HourlyWorker\).Work: SQL write not safe to repeat: INSERT without conflict handling \(\(HourlyWorker\).Work -> \(\*sql.DB\).ExecContext\); missing: key, enforcement`
	return err
}

// An insert of a job whose args type declares it unique is deduplicated by River: a
// redelivery inserts nothing new.
func (DigestWorker) scheduleNext(ctx context.Context) error { // want scheduleNext:`effects publish:protected\(\(\*river.Client\).Insert\)`
	_, err := rc.Insert(ctx, DigestArgs{AccountID: "a"}, nil)
	return err
}

type AccountWorker struct{}

func (AccountWorker) Work(ctx context.Context, job *river.Job[FollowUpArgs]) error { // want Work:`effects publish:protected\(\(\*river.Client\).Insert\)`
	_, err := rc.Insert(ctx, DigestArgs{AccountID: job.Args.OrderID}, nil)
	return err
}

type HourlyScheduler struct{}

// Its twin inserts a job unique by period only: a redelivery may insert another once the
// hour has passed, and it stays reported.
func (HourlyScheduler) Work(ctx context.Context, job *river.Job[FollowUpArgs]) error { // want Work:`effects publish:unprotected\(\(\*river.Client\).Insert\)`
	_, err := rc.Insert(ctx, HourlyArgs{AccountID: job.Args.OrderID}, nil) // want `handler \(HourlyScheduler\).Work: River job inserted without an idempotency key`
	return err
}

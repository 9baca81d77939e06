// Package uniquehelper holds River args types whose unique options a helper returns: // want package:"has effects" package:`retries .*StageArgs=unset river:publish/uniquehelper.ArchiveArgs=unique}`
// kept while the first job is completed (unique), and a ByState that lets a completed job
// be inserted again (not unique).
package uniquehelper

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

var rc *river.Client[pgx.Tx]

func archiveUnique() river.UniqueOpts {
	return river.UniqueOpts{
		ByArgs:  true,
		ByState: []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateCompleted},
	}
}

// ArchiveArgs is unique by its args, through the helper, including completed jobs.
type ArchiveArgs struct{ VideoID string }

func (ArchiveArgs) Kind() string { return "archive" }

func (ArchiveArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{Queue: "archive", UniqueOpts: archiveUnique()}
}

func liveOnly() river.UniqueOpts {
	return river.UniqueOpts{
		ByArgs:  true,
		ByState: []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning},
	}
}

// StageArgs is unique only while the first job is live: once it completes, the same args
// insert a second job.
type StageArgs struct{ VideoID string }

func (StageArgs) Kind() string { return "stage" }

func (StageArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: liveOnly()}
}

type ArchiveWorker struct{}

// Work inserts the next stage's job: deduplicated while the first is kept, completed too.
func (ArchiveWorker) Work(ctx context.Context, job *river.Job[StageArgs]) error { // want Work:`effects publish:protected\(\(\*river.Client\).Insert\)`
	_, err := rc.Insert(ctx, ArchiveArgs{VideoID: job.Args.VideoID}, nil)
	return err
}

type StageWorker struct{}

// Work inserts a job a redelivery inserts again once the first has completed.
func (StageWorker) Work(ctx context.Context, job *river.Job[ArchiveArgs]) error { // want Work:`effects publish:unprotected\(\(\*river.Client\).Insert\)`
	_, err := rc.Insert(ctx, StageArgs{VideoID: job.Args.VideoID}, nil) // want `handler \(StageWorker\).Work: River job inserted without an idempotency key`
	return err
}

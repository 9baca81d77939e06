// Package uniquehelper holds River args types whose unique options a helper returns: // want package:"has effects" package:`retries .*StageArgs=unset river:publish/uniquehelper.ArchiveArgs=unique river:publish/uniquehelper.StageArgs=unique-while-active}`
// kept while the first job is completed (unique), and a ByState that lets a completed job
// be inserted again (unique only while the first is active, which the insert's finding
// says).
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
	_, err := rc.Insert(ctx, StageArgs{VideoID: job.Args.VideoID}, nil) // want `handler \(StageWorker\).Work: River job inserted unique by its args only while an earlier job is active \(its UniqueOpts' ByState leaves out completed\): a repeat after that job completed inserts another;`
	return err
}

// insert inserts the args its caller gives.
func insert(ctx context.Context, args river.JobArgs) error {
	_, err := rc.Insert(ctx, args, nil)
	return err
}

// RelayArgs starts a relay.
type RelayArgs struct{ VideoID string }

func (RelayArgs) Kind() string { return "relay" }

type RelayWorker struct{}

// Work inserts the stage's job through the helper: the caller's args type decides.
func (RelayWorker) Work(ctx context.Context, job *river.Job[RelayArgs]) error { // want Work:`effects publish:unprotected\(\(\*river.Client\).Insert\)`
	return insert(ctx, StageArgs{VideoID: job.Args.VideoID}) // want `handler \(RelayWorker\).Work: River job inserted unique by its args only while an earlier job is active`
}

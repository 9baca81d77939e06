// Package rivertype is a stub of github.com/riverqueue/river/rivertype
// v0.51.2 for the analyzer tests: the job row a River worker sees and the
// worker middleware interface its Worker type mentions.
package rivertype

import (
	"context"
	"time"
)

// JobState is the state of a job row.
type JobState string

// The job states the linter's tests refer to.
const (
	JobStateAvailable JobState = "available"
	JobStateCompleted JobState = "completed"
	JobStatePending   JobState = "pending"
	JobStateRunning   JobState = "running"
)

// JobRow is a job as stored in the database. Attempt and ID are what a worker
// can build an idempotency key from.
type JobRow struct {
	ID          int64
	Attempt     int
	AttemptedAt *time.Time
	CreatedAt   time.Time
	EncodedArgs []byte
	Kind        string
	MaxAttempts int
	Metadata    []byte
	Queue       string
	State       JobState
}

// JobInsertResult is what Client.Insert returns.
type JobInsertResult struct {
	Job                      *JobRow
	UniqueSkippedAsDuplicate bool
}

// Middleware is the sentinel interface of all River middleware.
type Middleware interface {
	IsMiddleware() bool
}

// WorkerMiddleware wraps the working of a job.
type WorkerMiddleware interface {
	Middleware
	Work(ctx context.Context, job *JobRow, doInner func(context.Context) error) error
}

// Package river is the part of github.com/riverqueue/river's API the driver's test modules
// use (oncejobs, riverjobs): jobs, workers, inserts, batches and their options.
package river

import (
	"context"
	"time"

	"github.com/riverqueue/river/rivertype"
)

// JobArgs are a job's arguments.
type JobArgs interface{ Kind() string }

// Job is a job being worked.
type Job[T JobArgs] struct {
	*rivertype.JobRow

	Args T
}

// Worker works jobs of one kind.
type Worker[T JobArgs] interface {
	Middleware(job *rivertype.JobRow) []rivertype.WorkerMiddleware
	NextRetry(job *Job[T]) time.Time
	Timeout(job *Job[T]) time.Duration
	Work(ctx context.Context, job *Job[T]) error
}

// WorkerDefaults gives a worker struct every Worker method but Work.
type WorkerDefaults[T JobArgs] struct{}

// Middleware returns no middleware.
func (w WorkerDefaults[T]) Middleware(*rivertype.JobRow) []rivertype.WorkerMiddleware { return nil }

// NextRetry defers to the client's retry policy.
func (w WorkerDefaults[T]) NextRetry(*Job[T]) time.Time { return time.Time{} }

// Timeout defers to the client's timeout.
func (w WorkerDefaults[T]) Timeout(*Job[T]) time.Duration { return 0 }

// Workers is the registry of workers.
type Workers struct{}

// NewWorkers returns an empty registry.
func NewWorkers() *Workers { return &Workers{} }

// AddWorker registers a worker.
func AddWorker[T JobArgs](workers *Workers, worker Worker[T]) {}

// InsertOpts are options of an insert.
type InsertOpts struct {
	MaxAttempts int
	Queue       string
}

// Client inserts and works jobs.
type Client[TTx any] struct{}

// Insert inserts a job.
func (c *Client[TTx]) Insert(ctx context.Context, args JobArgs, opts *InsertOpts) (*rivertype.JobInsertResult, error) {
	return nil, nil
}

// InsertManyParams is one job of a batch insert, with its options.
type InsertManyParams struct {
	Args       JobArgs
	InsertOpts *InsertOpts
}

// InsertMany inserts many jobs at once.
func (c *Client[TTx]) InsertMany(ctx context.Context, params []InsertManyParams) ([]*rivertype.JobInsertResult, error) {
	return nil, nil
}

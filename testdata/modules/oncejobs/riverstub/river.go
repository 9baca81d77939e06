// Package river is the part of github.com/riverqueue/river's API the oncejobs module uses:
// jobs, workers, inserts and their options.
package river

import "context"

// JobArgs are a job's arguments.
type JobArgs interface{ Kind() string }

// Job is a job being worked.
type Job[T JobArgs] struct{ Args T }

// Worker works jobs of one kind.
type Worker[T JobArgs] interface {
	Work(ctx context.Context, job *Job[T]) error
}

// WorkerDefaults gives a worker struct every Worker method but Work.
type WorkerDefaults[T JobArgs] struct{}

// Workers is the registry of workers.
type Workers struct{}

// AddWorker registers a worker.
func AddWorker[T JobArgs](workers *Workers, worker Worker[T]) {}

// InsertOpts are options of an insert.
type InsertOpts struct{ MaxAttempts int }

// JobInsertResult is what an insert returns.
type JobInsertResult struct{}

// Client inserts and works jobs.
type Client[TTx any] struct{}

// Insert inserts a job.
func (c *Client[TTx]) Insert(ctx context.Context, args JobArgs, opts *InsertOpts) (*JobInsertResult, error) {
	return nil, nil
}

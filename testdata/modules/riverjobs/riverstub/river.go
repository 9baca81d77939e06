// Package river is a stub of github.com/riverqueue/river v0.51.2 for the
// analyzer tests. It keeps the real type parameters and constraints, since the
// linter recognises workers through the generic Worker[T] interface.
package river

import (
	"context"
	"time"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"
)

// JobArgs is implemented by a job's argument struct.
type JobArgs interface {
	Kind() string
}

// Job is what a worker receives: the stored row plus the decoded arguments.
type Job[T JobArgs] struct {
	*rivertype.JobRow

	Args T
}

// Worker works jobs of one kind. The linter treats its implementations'
// Work methods as handlers, so it must have the real method set.
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

// Workers is the registry of workers by job kind.
type Workers struct{}

// NewWorkers returns an empty registry.
func NewWorkers() *Workers { return &Workers{} }

// AddWorker registers worker, panicking on error.
func AddWorker[T JobArgs](workers *Workers, worker Worker[T]) {}

// AddWorkerSafely registers worker.
func AddWorkerSafely[T JobArgs](workers *Workers, worker Worker[T]) error { return nil }

// WorkFunc makes a Worker of a function.
func WorkFunc[T JobArgs](f func(context.Context, *Job[T]) error) Worker[T] { panic("stub") }

// QueueDefault is the queue jobs go to unless told otherwise.
const QueueDefault = "default"

// QueueConfig configures one queue.
type QueueConfig struct {
	MaxWorkers int
}

// Config configures a Client.
type Config struct {
	MaxAttempts int
	Queues      map[string]QueueConfig
	Workers     *Workers
}

// UniqueOpts makes an insert a no-op when an equivalent job exists.
type UniqueOpts struct {
	ByArgs   bool
	ByPeriod time.Duration
	ByQueue  bool
	ByState  []rivertype.JobState
}

// InsertOpts are per-insert options.
type InsertOpts struct {
	MaxAttempts int
	Queue       string
	ScheduledAt time.Time
	UniqueOpts  UniqueOpts
}

// Client inserts and works jobs; TTx is the driver's transaction type.
type Client[TTx any] struct{}

// NewClient returns a client on driver.
func NewClient[TTx any](driver riverdriver.Driver[TTx], config *Config) (*Client[TTx], error) {
	panic("stub")
}

// ClientFromContext returns the client working the current job.
func ClientFromContext[TTx any](ctx context.Context) *Client[TTx] { panic("stub") }

// Start starts working jobs.
func (c *Client[TTx]) Start(ctx context.Context) error { panic("stub") }

// Stop stops working jobs.
func (c *Client[TTx]) Stop(ctx context.Context) error { panic("stub") }

// Insert inserts a job.
func (c *Client[TTx]) Insert(ctx context.Context, args JobArgs, opts *InsertOpts) (*rivertype.JobInsertResult, error) {
	panic("stub")
}

// InsertTx inserts a job within tx.
func (c *Client[TTx]) InsertTx(ctx context.Context, tx TTx, args JobArgs, opts *InsertOpts) (*rivertype.JobInsertResult, error) {
	panic("stub")
}

// InsertManyParams is one job of a batch insert, with its options.
type InsertManyParams struct {
	Args       JobArgs
	InsertOpts *InsertOpts
}

// InsertMany inserts many jobs at once.
func (c *Client[TTx]) InsertMany(ctx context.Context, params []InsertManyParams) ([]*rivertype.JobInsertResult, error) {
	panic("stub")
}

// InsertManyTx inserts many jobs at once within tx.
func (c *Client[TTx]) InsertManyTx(ctx context.Context, tx TTx, params []InsertManyParams) ([]*rivertype.JobInsertResult, error) {
	panic("stub")
}

// JobCompleteTx marks job completed within tx, so the job's own writes and
// its completion commit together: the pattern that makes a worker
// idempotent.
func JobCompleteTx[TDriver riverdriver.Driver[TTx], TTx any, TArgs JobArgs](ctx context.Context, tx TTx, job *Job[TArgs]) (*Job[TArgs], error) {
	panic("stub")
}

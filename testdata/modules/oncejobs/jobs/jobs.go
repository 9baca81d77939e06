// Package jobs powers machines off through an API that does not deduplicate. Its own insert
// makes the job a single attempt; the admin command inserts it with the default retries.
package jobs

import (
	"context"
	"net/http"
	"strings"

	"github.com/riverqueue/river"
)

// PowerArgs names the machine.
type PowerArgs struct{ ID string }

// Kind is the job's kind.
func (PowerArgs) Kind() string { return "power" }

// PowerWorker powers the machine off.
type PowerWorker struct {
	river.WorkerDefaults[PowerArgs]
}

// Work posts the power-off request.
func (w *PowerWorker) Work(ctx context.Context, job *river.Job[PowerArgs]) error {
	_, err := http.Post("https://pve.example.com/power", "text/plain", strings.NewReader(job.Args.ID))
	return err
}

// Enqueue inserts the job for one attempt.
func Enqueue(ctx context.Context, c *river.Client[any], id string) error {
	_, err := c.Insert(ctx, PowerArgs{ID: id}, &river.InsertOpts{MaxAttempts: 1})
	return err
}

// Register registers the worker.
func Register(w *river.Workers) { river.AddWorker(w, &PowerWorker{}) }

// Package jobs lists its job functions in a table the worker registers.
package jobs

import (
	"context"
	"database/sql"
	"time"
)

// DB is the jobs' database.
var DB *sql.DB

// Job is a table entry: a task type and the function that runs it.
type Job struct {
	Name string
	Run  func(ctx context.Context, payload []byte) error
}

// sendDigest records a digest: a second run records a second one.
func sendDigest(ctx context.Context, p []byte) error {
	_, err := DB.ExecContext(ctx, "INSERT INTO digests (body) VALUES ($1)", p)
	return err
}

// expireSession deletes a session: a second run deletes nothing more. The cancel function
// it calls is its context's, no callback it was given.
func expireSession(ctx context.Context, p []byte) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err := DB.ExecContext(ctx, "DELETE FROM sessions WHERE id = $1", string(p))
	return err
}

// All is the table of jobs.
var All = []Job{
	{Name: "digest:send", Run: sendDigest},
	{Name: "session:expire", Run: expireSession},
}

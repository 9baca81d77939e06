// Package jobs lists its job functions in a table another package registers. // want package:"has effects"
package jobs

import (
	"context"
	"database/sql"
)

var DB *sql.DB

// Job is a table entry: a task type and the function that runs it.
type Job struct {
	Name string
	Run  func(ctx context.Context, payload []byte) error
}

func sendDigest(ctx context.Context, p []byte) error {
	_, err := DB.ExecContext(ctx, "INSERT INTO digests (body) VALUES ($1)", p)
	return err
}

func expireSessions(ctx context.Context, p []byte) error {
	_, err := DB.ExecContext(ctx, "DELETE FROM sessions WHERE id = $1", string(p))
	return err
}

func format(p []byte) string { return string(p) }

// All is the table: its fact names the functions it lists, not the one it calls.
var All = []Job{ // want All:`table\(sendDigest, expireSessions\)`
	{Name: "digest:send", Run: sendDigest},
	{Name: "sessions:expire", Run: func(ctx context.Context, p []byte) error { return expireSessions(ctx, []byte(format(p))) }},
	{Name: "sessions:expire-now", Run: expireSessions},
}

// Names is no table of functions: no fact.
var Names = []string{"digest:send", "sessions:expire"}

// unexported tables are not seen by other packages: no fact.
var local = []Job{{Name: "x", Run: sendDigest}}

// Audit is a table no package registers: its functions are no handlers.
var Audit = []Job{{Name: "audit:write", Run: writeAudit}} // want Audit:`table\(writeAudit\)`

func writeAudit(ctx context.Context, p []byte) error {
	_, err := DB.ExecContext(ctx, "INSERT INTO audit (body) VALUES ($1)", p)
	return err
}

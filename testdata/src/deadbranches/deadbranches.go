// Package deadbranches holds handlers whose effects sit behind a predicate of the package // want package:"has effects"
// that answers every call the same way (a check left to be written: return false): the
// branch its answer never takes runs nothing. A predicate that answers from its input, one
// that answers both ways, and one declared in a file with a build constraint (whose other
// body another build may use) decide nothing.
package deadbranches

import (
	"context"
	"database/sql"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

var db *sql.DB

// isPermanent says whether a build error will not go away on a retry: not written yet.
func isPermanent(err error) bool {
	return false
}

// quarantine records a permanent failure and disables the source.
func quarantine(ctx context.Context, id string, err error) error {
	if !isPermanent(err) {
		return nil
	}
	_, e := db.ExecContext(ctx, "INSERT INTO attempts (source_id, error) VALUES ($1, $2)", id, err.Error())
	return e
}

// Ingest quarantines a source whose connector fails to build: never, as isPermanent stands.
func Ingest(ctx context.Context, t *asynq.Task) error {
	if err := build(string(t.Payload())); err != nil {
		return quarantine(ctx, string(t.Payload()), err)
	}
	return nil
}

// Notify would post the failure when isPermanent says so.
func Notify(ctx context.Context, t *asynq.Task) error {
	if err := build(string(t.Payload())); isPermanent(err) {
		_, _ = http.Post("https://hooks.example.com/failed", "text/plain", strings.NewReader(err.Error()))
	}
	return nil
}

// isTransient answers from the error it is given.
func isTransient(err error) bool {
	return err != nil && strings.Contains(err.Error(), "timeout")
}

// Retry records every error that is not transient.
func Retry(ctx context.Context, t *asynq.Task) error { // want Retry:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	err := build(string(t.Payload()))
	if isTransient(err) {
		return err
	}
	_, e := db.ExecContext(ctx, "INSERT INTO attempts (source_id) VALUES ($1)", t.Payload()) // want `handler Retry: SQL write not safe to repeat`
	return e
}

// enabled answers both ways.
func enabled(feature string) bool {
	if feature == "audit" {
		return true
	}
	return false
}

// Audit records the run when auditing is on.
func Audit(ctx context.Context, t *asynq.Task) error { // want Audit:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if !enabled("audit") {
		return nil
	}
	_, err := db.ExecContext(ctx, "INSERT INTO audit (task) VALUES ($1)", t.Payload()) // want `handler Audit: SQL write not safe to repeat`
	return err
}

// Sample records the run where the platform's sampled says so.
func Sample(ctx context.Context, t *asynq.Task) error { // want Sample:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if !sampled() {
		return nil
	}
	_, err := db.ExecContext(ctx, "INSERT INTO samples (task) VALUES ($1)", t.Payload()) // want `handler Sample: SQL write not safe to repeat`
	return err
}

func build(source string) error { return nil }

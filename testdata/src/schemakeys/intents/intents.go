// Package intents exercises partial unique indexes: one whose predicate the insert's rows // want package:"has effects"
// may not meet, and one every inserted row is under.
package intents

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"
)

var db *sql.DB

// RecordIntent inserts a product's intent with a status it is given: the partial key holds
// only pending intents, so whether a repeat conflicts depends on the status. The insert is
// reported as one without conflict handling, not as one a key turns away.
func RecordIntent(ctx context.Context, t *asynq.Task) error { // want RecordIntent:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO intents (product_id, status) VALUES ($1, $2)", string(t.Payload()), t.Type()) // want `handler RecordIntent: SQL write not safe to repeat: INSERT without conflict handling \(RecordIntent`
	return err
}

// ClaimHandle inserts a live handle: every row it adds is under handles_live, which turns
// a repeat away.
func ClaimHandle(ctx context.Context, t *asynq.Task) error { // want ClaimHandle:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO handles (handle) VALUES ($1)", string(t.Payload())) // want `handler ClaimHandle: SQL write not safe to repeat: INSERT without conflict handling into handles fails on a repeat: the unique key handles_live`
	return err
}

// Package fixes exercises the suggested fix for directives that silence nothing: the // want package:"has effects"
// directive is removed, with its line when it stands alone.
package fixes

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"
)

var db *sql.DB

func HandleCleanup(ctx context.Context, t *asynq.Task) error {
	//idemlint:ignore sql.write -- stale: the delete below converges // want `//idemlint:ignore sql.write silences nothing here`
	if _, err := db.Exec("DELETE FROM carts WHERE id = 1"); err != nil {
		return err
	}
	_, err := db.Exec("DELETE FROM sessions WHERE id = 1") //idemlint:ignore sql.write -- stale // want `//idemlint:ignore sql.write silences nothing here`
	return err
}

// reset clears a cart; deleting by key converges, so there is nothing to declare.
//
//idemlint:idempotent -- deleting twice is harmless // want `//idemlint:idempotent silences nothing`
func reset() error {
	_, err := db.Exec("DELETE FROM carts WHERE id = 2")
	return err
}

func HandleReset(ctx context.Context, t *asynq.Task) error {
	if err := reset(); err != nil {
		return err
	}
	//idemlint:ignore sql.write -- the audit table is compacted nightly
	_, err := db.Exec("INSERT INTO audit (a) VALUES (1)")
	return err
}

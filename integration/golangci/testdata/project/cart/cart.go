// Package cart has a stale directive, which idemlint offers to remove.
package cart

import (
	"context"
	"database/sql"
)

var db *sql.DB

// HandleCartExpired deletes a cart: deleting by key converges, so the directive is stale.
//
//idemlint:handler
func HandleCartExpired(ctx context.Context, id int64) error {
	//idemlint:ignore sql.write -- carts are deleted twice at worst
	_, err := db.ExecContext(ctx, "DELETE FROM carts WHERE id = $1", id)
	return err
}

// Package shop is the project the gopls test opens: a handler with a finding and a stale
// directive whose removal gopls offers as a quick fix.
package shop

import (
	"context"
	"database/sql"
)

var db *sql.DB

// HandleOrderCreated records an order: an INSERT without conflict handling.
//
//idemlint:handler
func HandleOrderCreated(ctx context.Context, id int64) error {
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id)
	return err
}

// HandleCartExpired deletes a cart: deleting by key converges, so the directive is stale.
//
//idemlint:handler
func HandleCartExpired(ctx context.Context, id int64) error {
	//idemlint:ignore sql.write -- carts are deleted twice at worst
	_, err := db.ExecContext(ctx, "DELETE FROM carts WHERE id = $1", id)
	return err
}

// Package store is a query layer in sqlc's shape: its insert takes the order's key from a // want package:"has effects"
// params struct, so whether a repeat fails on orders' unique key is for its callers to say.
package store

import (
	"context"
	"database/sql"
)

const insertOrder = `INSERT INTO orders (external_id, amount) VALUES ($1, $2)`

// Queries runs the store's statements.
type Queries struct{ db *sql.DB }

// InsertOrderParams are InsertOrder's values.
type InsertOrderParams struct {
	ExternalID string
	Amount     int64
}

// InsertOrder inserts an order keyed by arg.ExternalID.
func (q *Queries) InsertOrder(ctx context.Context, arg InsertOrderParams) error { // want InsertOrder:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)\[unique key from params 1.ExternalID\]`
	_, err := q.db.ExecContext(ctx, insertOrder, arg.ExternalID, arg.Amount)
	return err
}

// Package poll is a queue helper in the shape of a consumer library: it fetches the pending
// messages from a table and calls the callback it is given on each, acknowledging those the
// callback accepts. It calls its callback parameter and keeps it nowhere, so its fact says
// so and each caller gets the callback's effects through Poll.
package poll

import (
	"context"
	"database/sql"
)

// Handler handles one message and reports whether it is done.
type Handler func(ctx context.Context, payload []byte) bool

// Poll hands each pending message of queue to f.
func Poll(ctx context.Context, db *sql.DB, queue string, f Handler) error {
	rows, err := db.QueryContext(ctx, "SELECT id, payload FROM messages WHERE queue = $1", queue)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var payload []byte
		if err := rows.Scan(&id, &payload); err != nil {
			return err
		}
		go func() {
			if f(ctx, payload) {
				_ = id // acknowledged (the DELETE is left out of the shape)
			}
		}()
	}
	return rows.Err()
}

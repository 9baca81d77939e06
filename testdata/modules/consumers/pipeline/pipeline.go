// Package pipeline stores what a fetcher it declares gives it, imports no queue library
// and does not know the source: main wires them. Its loop is the handler.
package pipeline

import (
	"context"
	"database/sql"

	"consumers/model"
)

type fetcher interface {
	Next(context.Context) (model.Event, error)
}

// Run stores each event.
func Run(ctx context.Context, f fetcher, db *sql.DB) {
	for {
		ev, err := f.Next(ctx)
		if err != nil {
			return
		}
		_, _ = db.ExecContext(ctx, "INSERT INTO events (id, body) VALUES ($1, $2)", ev.ID, ev.Body)
	}
}

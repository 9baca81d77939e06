// Package claimelsewhere reads new entries itself, and reclaims stale ones through a helper // want package:"has effects"
// of another package (store.ClaimStale). The reclaim's command is not in view here, so the
// only-new read is not taken as at most once: both loops are reported.
package claimelsewhere

import (
	"context"
	"database/sql"

	"streamonce/claimelsewhere/store"
)

var db *sql.DB

type Worker struct {
	store *store.Store
	id    string
}

// fetch reads only new entries; the entries claimStale reclaims are handled again.
func (w *Worker) fetch(ctx context.Context) {
	for {
		c := w.store.Client()
		streams, err := c.Do(ctx, c.B().Xreadgroup().Group("workers", w.id).Streams().Key("jobs").Id(">").Build()).AsXRead()
		if err != nil {
			continue
		}
		for _, e := range streams["jobs"] {
			db.Exec("INSERT INTO runs (job_id) VALUES ($1)", e.ID) // want `^handler receive loop in \(\*Worker\).fetch: SQL write not safe to repeat`
			c.Do(ctx, c.B().Xack().Key("jobs").Group("workers").Id(e.ID).Build())
		}
	}
}

// claimStale handles what the store reclaims.
func (w *Worker) claimStale(ctx context.Context) {
	for {
		entries, err := w.store.ClaimStale(ctx, w.id)
		if err != nil {
			continue
		}
		for _, e := range entries {
			db.Exec("INSERT INTO reruns (job_id) VALUES ($1)", e.ID) // want `^handler receive loop in \(\*Worker\).claimStale: SQL write not safe to repeat`
		}
	}
}

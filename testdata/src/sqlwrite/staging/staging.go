// Package staging ingests rows through a temporary table: COPY into the session's scratch, // want package:"has effects"
// then one INSERT ... SELECT that skips what is already stored.
package staging

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var pool *pgxpool.Pool

func rowsOf(t *asynq.Task) [][]any { return [][]any{{string(t.Payload())}} }

// Ingest stages the heartbeats and moves them over: the temporary table starts empty in
// every run, and the insert skips the rows a first run stored.
func Ingest(ctx context.Context, t *asynq.Task) error { // want Ingest:`effects sql.write:protected\(\(pgx.Tx\).Exec\)`
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `CREATE TEMP TABLE tmp_heartbeats (id text) ON COMMIT DROP`); err != nil {
		return err
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"tmp_heartbeats"}, []string{"id"}, pgx.CopyFromRows(rowsOf(t))); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO heartbeats (id) SELECT id FROM tmp_heartbeats ON CONFLICT DO NOTHING`); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// IngestDirect makes the same scratch table but copies into the stored one: a repeat adds
// the rows again.
func IngestDirect(ctx context.Context, t *asynq.Task) error { // want IngestDirect:`effects sql.write:unprotected\(\(pgx.Tx\).CopyFrom\)`
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `CREATE TEMP TABLE tmp_heartbeats (id text) ON COMMIT DROP`); err != nil {
		return err
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"heartbeats"}, []string{"id"}, pgx.CopyFromRows(rowsOf(t))); err != nil { // want `handler IngestDirect: SQL write not safe to repeat: bulk COPY`
		return err
	}
	return tx.Commit(ctx)
}

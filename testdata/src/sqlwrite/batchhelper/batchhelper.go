// Package batchhelper queues statements on a pgx batch and hands it to a helper that // want package:"has effects"
// sends it: what each caller queued decides.
package batchhelper

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var pool *pgxpool.Pool

func flush(ctx context.Context, tx pgx.Tx, b *pgx.Batch, n int) error {
	res := tx.SendBatch(ctx, b)
	for i := 0; i < n; i++ {
		if _, err := res.Exec(); err != nil {
			_ = res.Close()
			return err
		}
	}
	return res.Close()
}

// ApplyRules deletes one heartbeat and sets another's project: both converge.
func ApplyRules(ctx context.Context, t *asynq.Task) error { // want ApplyRules:`effects sql.write:protected\(\(pgx.Tx\).SendBatch\)`
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	id := string(t.Payload())
	b := &pgx.Batch{}
	b.Queue(`DELETE FROM heartbeats WHERE id = $1`, id)
	b.Queue(`UPDATE heartbeats SET project = 'work' WHERE id = $1`, id)
	if err := flush(ctx, tx, b, 2); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// CountRules adds to a counter through the same helper: reported.
func CountRules(ctx context.Context, t *asynq.Task) error { // want CountRules:`effects sql.write:unprotected\(\(pgx.Tx\).SendBatch\)`
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	b := &pgx.Batch{}
	b.Queue(`UPDATE rule_stats SET applied = applied + 1 WHERE id = $1`, string(t.Payload()))
	if err := flush(ctx, tx, b, 1); err != nil { // want `handler CountRules: SQL write not safe to repeat: relative UPDATE of applied`
		return err
	}
	return tx.Commit(ctx)
}

// Package pgxbatch exercises the pgx model's batches: statements gathered in a []string by // want package:"has effects"
// appends of constants and queued on the batch in a loop, or by a helper the batch is
// handed to.
package pgxbatch

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"models/pgxbatch/pgdb"
)

var pool *pgxpool.Pool

// queueAll queues each statement on the batch.
func queueAll(b *pgx.Batch, stmts []string, id string) {
	for _, s := range stmts {
		b.Queue(s, id)
	}
}

// Settle gathers an update and an insert without conflict handling, queued by the helper.
func Settle(ctx context.Context, t *asynq.Task) error { // want Settle:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).SendBatch\)`
	var stmts []string
	stmts = append(stmts, "UPDATE orders SET status = 'settled' WHERE id = $1")
	stmts = append(stmts, "INSERT INTO ledger (order_id) VALUES ($1)")
	b := &pgx.Batch{}
	queueAll(b, stmts, string(t.Payload()))
	return pool.SendBatch(ctx, b).Close() // want `handler Settle: SQL write not safe to repeat: INSERT without conflict handling \(Settle -> \(\*pgxpool.Pool\).SendBatch\); missing: key, enforcement$`
}

// SettleSafe gathers the same statements made safe to repeat.
func SettleSafe(ctx context.Context, t *asynq.Task) error { // want SettleSafe:`effects sql.write:protected\(\(\*pgxpool.Pool\).SendBatch\)`
	var stmts []string
	stmts = append(stmts, "UPDATE orders SET status = 'settled' WHERE id = $1")
	stmts = append(stmts, "INSERT INTO ledger (order_id) VALUES ($1) ON CONFLICT (order_id) DO NOTHING")
	b := &pgx.Batch{}
	queueAll(b, stmts, string(t.Payload()))
	return pool.SendBatch(ctx, b).Close()
}

// Inline queues a literal list in a loop of its own: a relative update.
func Inline(ctx context.Context, t *asynq.Task) error { // want Inline:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).SendBatch\)`
	stmts := []string{
		"UPDATE accounts SET balance = balance - 10 WHERE id = $1",
		"DELETE FROM holds WHERE account_id = $1",
	}
	b := &pgx.Batch{}
	for _, s := range stmts {
		b.Queue(s, string(t.Payload()))
	}
	return pool.SendBatch(ctx, b).Close() // want `handler Inline: SQL write not safe to repeat: relative UPDATE of balance \(Inline -> \(\*pgxpool.Pool\).SendBatch\); missing: key, enforcement$`
}

// InlineSafe queues converging statements in a loop.
func InlineSafe(ctx context.Context, t *asynq.Task) error { // want InlineSafe:`effects sql.write:protected\(\(\*pgxpool.Pool\).SendBatch\)`
	stmts := []string{"UPDATE accounts SET frozen = true WHERE id = $1", "DELETE FROM holds WHERE account_id = $1"}
	b := &pgx.Batch{}
	for _, s := range stmts {
		b.Queue(s, string(t.Payload()))
	}
	return pool.SendBatch(ctx, b).Close()
}

// Unknown queues statements it is given through a helper: their text is not in view, and
// nothing of it shows a write (docs/checks.md, sqlwrite), so the batch is no effect.
func Unknown(ctx context.Context, stmts []string) error {
	b := &pgx.Batch{}
	queueAll(b, stmts, "")
	return pool.SendBatch(ctx, b).Close()
}

// tx is the transaction the handlers below share.
var tx pgx.Tx

// Count hands the helper of another package a relative update: judged by its text there.
func Count(ctx context.Context, t *asynq.Task) error { // want Count:`effects sql.write:unprotected\(\(pgx.Tx\).SendBatch\)`
	return pgdb.BatchTx(ctx, tx, []string{"UPDATE posts SET comments = comments + 1 WHERE id = $1"}, [][]any{{t.Type()}}) // want `handler Count: SQL write not safe to repeat: relative UPDATE of comments \(Count -> pgdb.BatchTx -> \(pgx.Tx\).SendBatch\)`
}

// Mark is Count's twin, with statements that converge.
func Mark(ctx context.Context, t *asynq.Task) error { // want Mark:`effects sql.write:protected\(\(pgx.Tx\).SendBatch\)`
	stmts := []string{"UPDATE posts SET seen = true WHERE id = $1", "INSERT INTO reads (id) VALUES ($1) ON CONFLICT DO NOTHING"}
	return pgdb.BatchTx(ctx, tx, stmts, [][]any{{t.Type()}, {t.Type()}})
}

// Read is a twin whose one statement reads: no effect.
func Read(ctx context.Context, t *asynq.Task) error {
	return pgdb.BatchTx(ctx, tx, []string{"SELECT 1"}, nil)
}

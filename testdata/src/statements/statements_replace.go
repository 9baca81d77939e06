package statements

import (
	"context"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var pool *pgxpool.Pool

type line struct {
	SKU string
	Qty int
}

func decodeLines(t *asynq.Task) (string, []line) { return t.Type(), nil }

// ReplaceLines deletes the order's lines and inserts them again in one transaction: a
// repeat deletes what the first run inserted, and the state converges.
func ReplaceLines(ctx context.Context, t *asynq.Task) error { // want ReplaceLines:`effects sql.write:protected\(\(pgx.Tx\).Exec\)`
	orderID, lines := decodeLines(t)
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "DELETE FROM order_lines WHERE order_id = $1", orderID); err != nil {
			return err
		}
		for _, l := range lines {
			if _, err := tx.Exec(ctx, "INSERT INTO order_lines (order_id, sku, qty) VALUES ($1, $2, $3)", orderID, l.SKU, l.Qty); err != nil {
				return err
			}
		}
		return nil
	})
}

// ReplaceOnPool is its twin on the pool: the DELETE commits on its own, so a crash between
// the two leaves the rows gone, and two deliveries running together both insert.
func ReplaceOnPool(ctx context.Context, t *asynq.Task) error { // want ReplaceOnPool:`effects sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\)`
	orderID, lines := decodeLines(t)
	if _, err := pool.Exec(ctx, "DELETE FROM order_lines WHERE order_id = $1", orderID); err != nil {
		return err
	}
	for _, l := range lines {
		if _, err := pool.Exec(ctx, "INSERT INTO order_lines (order_id, sku, qty) VALUES ($1, $2, $3)", orderID, l.SKU, l.Qty); err != nil { // want `handler ReplaceOnPool: SQL write not safe to repeat: INSERT without conflict handling`
			return err
		}
	}
	return nil
}

// ReplaceOtherKey deletes by another column than the one whose value it inserts: the
// rows the INSERT adds are not those the DELETE removes.
func ReplaceOtherKey(ctx context.Context, t *asynq.Task) error { // want ReplaceOtherKey:`effects sql.write:unprotected\(\(pgx.Tx\).Exec\)`
	orderID, lines := decodeLines(t)
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "DELETE FROM order_lines WHERE batch_id = $1", orderID); err != nil {
		return err
	}
	_, err = tx.Exec(ctx, "INSERT INTO order_lines (order_id, sku) VALUES ($1, $2)", orderID, lines[0].SKU) // want `handler ReplaceOtherKey: SQL write not safe to repeat: INSERT without conflict handling`
	return err
}

// ReplaceAfter deletes after it inserts: the repeat's DELETE removes the rows, the first
// run's INSERT came before it, and nothing is replaced.
func ReplaceAfter(ctx context.Context, t *asynq.Task) error { // want ReplaceAfter:`effects sql.write:unprotected\(\(pgx.Tx\).Exec\)`
	orderID, lines := decodeLines(t)
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "INSERT INTO order_lines (order_id, sku) VALUES ($1, $2)", orderID, lines[0].SKU); err != nil { // want `handler ReplaceAfter: SQL write not safe to repeat: INSERT without conflict handling`
		return err
	}
	_, err = tx.Exec(ctx, "DELETE FROM order_lines WHERE order_id = $1 AND sku <> $2", orderID, lines[0].SKU)
	return err
}

// ReplaceHeatmap rewrites a cabinet's rows with one DELETE and one INSERT ... SELECT from
// unnest on a transaction it begins: a repeat replaces them.
func ReplaceHeatmap(ctx context.Context, t *asynq.Task) error { // want ReplaceHeatmap:`effects sql.write:protected\(\(pgx.Tx\).Exec\)`
	cabinet, _ := decodeLines(t)
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "DELETE FROM heatmap WHERE cabinet_id = $1", cabinet); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "INSERT INTO heatmap (cabinet_id, sku, hour) SELECT $1, u.sku, u.hour FROM unnest($2::bigint[], $3::int[]) AS u(sku, hour)", cabinet, []int64{1}, []int32{2}); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// AppendHeatmap inserts the same rows with no DELETE before: every run adds them again.
func AppendHeatmap(ctx context.Context, t *asynq.Task) error { // want AppendHeatmap:`effects sql.write:unprotected\(\(pgx.Tx\).Exec\)`
	cabinet, _ := decodeLines(t)
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "INSERT INTO heatmap (cabinet_id, sku, hour) SELECT $1, u.sku, u.hour FROM unnest($2::bigint[], $3::int[]) AS u(sku, hour)", cabinet, []int64{1}, []int32{2}); err != nil { // want `handler AppendHeatmap: SQL write not safe to repeat: INSERT without conflict handling`
		return err
	}
	return tx.Commit(ctx)
}

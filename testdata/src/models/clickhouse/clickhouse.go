// Package clickhouse exercises the clickhouse-go model: a batch insert, an asynchronous // want package:"has effects"
// insert and a statement (writes, judged by their text), and the queries (reads).
package clickhouse

import (
	"context"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/hibiken/asynq"
)

var conn driver.Conn

// Sync appends the job's rows to a batch and sends it: with no schema to say the table
// merges repeats, a repeat inserts them again.
func Sync(ctx context.Context, t *asynq.Task) error { // want Sync:`effects sql.write:unprotected\(\(driver.Conn\).PrepareBatch\)`
	batch, err := conn.PrepareBatch(ctx, "INSERT INTO page_views (id, path) VALUES (?, ?)") // want `handler Sync: SQL write not safe to repeat: INSERT without conflict handling \(Sync -> \(driver.Conn\).PrepareBatch\)`
	if err != nil {
		return err
	}
	if err := batch.Append(t.Type(), "/"); err != nil {
		return err
	}
	return batch.Send()
}

// Track inserts asynchronously: as a plain insert.
func Track(ctx context.Context, t *asynq.Task) error { // want Track:`effects sql.write:unprotected\(\(driver.Conn\).AsyncInsert\)`
	return conn.AsyncInsert(ctx, "INSERT INTO clicks (id) VALUES (?)", true, t.Type()) // want `handler Track: SQL write not safe to repeat: INSERT without conflict handling \(Track -> \(driver.Conn\).AsyncInsert\)`
}

// Report reads: neither the query nor the select is an effect, and the DDL converges.
func Report(ctx context.Context, t *asynq.Task) error { // want Report:`effects sql.write:protected\(\(driver.Conn\).Exec\)`
	if err := conn.Exec(ctx, "CREATE TABLE IF NOT EXISTS daily (day Date, n UInt64) ENGINE = MergeTree ORDER BY day"); err != nil {
		return err
	}
	rows, err := conn.Query(ctx, "SELECT path, count() FROM page_views GROUP BY path")
	if err != nil {
		return err
	}
	defer rows.Close()
	var n uint64
	return conn.Select(ctx, &n, "SELECT count() FROM clicks WHERE id = ?", t.Type())
}

// Package clickhousekeys exercises inserts into ClickHouse tables the schema declares // want package:"has effects"
// (db/clickhouse.sql): a ReplacingMergeTree keeps one row per sorting key, so an insert of
// every key column converges; a SummingMergeTree adds the rows of one key up.
package clickhousekeys

import (
	"context"
	"time"

	"github.com/ClickHouse/clickhouse-go/v2/lib/driver"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var conn driver.Conn

// Order is a row of the service's own database, copied to ClickHouse.
type Order struct {
	ID                   uint64
	Status               string
	CreatedAt, UpdatedAt time.Time
}

// SyncOrders copies the job's orders into the ReplacingMergeTree by their sorting key: a
// repeat adds rows the table merges into the first run's.
func SyncOrders(ctx context.Context, orders []Order) error { // want SyncOrders:`effects sql.write:protected\(\(driver.Conn\).PrepareBatch\)`
	batch, err := conn.PrepareBatch(ctx, `INSERT INTO orders (id, status, created_at, updated_at) VALUES (?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	for _, o := range orders {
		if err := batch.Append(o.ID, o.Status, o.CreatedAt, o.UpdatedAt); err != nil {
			return err
		}
	}
	return batch.Send()
}

// HandleSync is the asynq handler that syncs: no finding.
func HandleSync(ctx context.Context, t *asynq.Task) error { // want HandleSync:`effects sql.write:protected\(\(driver.Conn\).PrepareBatch\)`
	return SyncOrders(ctx, []Order{{ID: 1, Status: string(t.Payload())}})
}

// HandlePartial leaves a column of the sorting key to its default: every run's row has a
// key of its own, and the table keeps them all.
func HandlePartial(ctx context.Context, t *asynq.Task) error { // want HandlePartial:`effects sql.write:unprotected\(\(driver.Conn\).Exec\)`
	return conn.Exec(ctx, `INSERT INTO orders (id, status, updated_at) VALUES (?, ?, ?)`, 1, string(t.Payload()), time.Now()) // want `handler HandlePartial: SQL write not safe to repeat: INSERT into orders adds a row on every run: orders declares no unique key`
}

// HandleFresh binds a new id on every run: each run's row has a key of its own.
func HandleFresh(ctx context.Context, t *asynq.Task) error { // want HandleFresh:`effects sql.write:unprotected\(\(driver.Conn\).Exec\)`
	return conn.Exec(ctx, `INSERT INTO orders (id, status, created_at, updated_at) VALUES ($1, $2, $3, $4)`, uuid.New().ID(), string(t.Payload()), time.Unix(0, 0), time.Unix(0, 0)) // want `handler HandleFresh: SQL write not safe to repeat: INSERT into orders adds a row on every run`
}

// HandleHits counts a hit into the SummingMergeTree: a repeat counts it twice.
func HandleHits(ctx context.Context, t *asynq.Task) error { // want HandleHits:`effects sql.write:unprotected\(\(driver.Conn\).AsyncInsert\)`
	return conn.AsyncInsert(ctx, `INSERT INTO daily_hits (day, hits) VALUES (today(), 1)`, false) // want `handler HandleHits: SQL write not safe to repeat: INSERT into daily_hits adds a row on every run: daily_hits declares no unique key`
}

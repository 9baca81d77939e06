// Package samples exercises observation tables: a row stamped by the clock with the time it // want package:"has effects"
// was taken, in a table whose name says it keeps observations or whose key holds that
// time, is a sample, and a repeat takes one more; a row whose time the job gives, one
// stamped only with when it was written, and one of a table that keeps captures, not
// observations, are reported. So are run records: a run's row that starts it now is not
// reported; a run asked for, or one whose start the job gives, is.
package samples

import (
	"context"
	"database/sql"
	"time"

	"github.com/hibiken/asynq"
)

var db *sql.DB

// CollectFrequency records a keyword's frequency as of now: no effect.
func CollectFrequency(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO keyword_frequency_samples (keyword_id, frequency) VALUES ($1, $2)", string(t.Payload()), 7)
	return err
}

// QuoteDelivery records a delivery quote keyed by the time it was taken: no effect.
func QuoteDelivery(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO delivery_quotes (product_id, region, days) VALUES ($1, $2, $3)", string(t.Payload()), "north", 2)
	return err
}

// CheckedAt gives the sample's time from the job: a repeat writes the same sample again.
func CheckedAt(ctx context.Context, t *asynq.Task) error { // want CheckedAt:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	at, _ := time.Parse(time.RFC3339, t.Type())
	_, err := db.ExecContext(ctx, "INSERT INTO keyword_frequency_samples (keyword_id, frequency, checked_at) VALUES ($1, $2, $3)", string(t.Payload()), 7, at) // want `handler CheckedAt: SQL write not safe to repeat: INSERT into keyword_frequency_samples adds a row on every run: keyword_frequency_samples has no unique key besides id`
	return err
}

// LogShipment writes a shipment's log row, stamped only with when it was written: reported.
func LogShipment(ctx context.Context, t *asynq.Task) error { // want LogShipment:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO shipment_log (order_id) VALUES ($1)", string(t.Payload())) // want `handler LogShipment: SQL write not safe to repeat: INSERT into shipment_log adds a row on every run: shipment_log has no unique key besides id`
	return err
}

// CaptureCard records a card payment captured now: a capture, not an observation (the
// table's name says nothing of one, no key holds the time), reported.
func CaptureCard(ctx context.Context, t *asynq.Task) error { // want CaptureCard:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO card_captures (order_id) VALUES ($1)", string(t.Payload())) // want `handler CaptureCard: SQL write not safe to repeat: INSERT into card_captures adds a row on every run`
	return err
}

// SetStock sets a product's stock and records a snapshot of it, in one statement whose
// update converges: no effect.
func SetStock(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, `WITH u AS (UPDATE products SET stock = $2 WHERE id = $1 RETURNING id, stock)
		INSERT INTO stock_snapshots (product_id, stock) SELECT id, stock FROM u`, string(t.Payload()), 3)
	return err
}

// AddStock adds to the stock before its snapshot: a repeat adds again, reported.
func AddStock(ctx context.Context, t *asynq.Task) error { // want AddStock:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, addStock, string(t.Payload()), 3) // want `^handler AddStock: SQL write not safe to repeat: relative UPDATE of stock`
	return err
}

const addStock = `WITH u AS (UPDATE products SET stock = stock + $2 WHERE id = $1 RETURNING id, stock)
	INSERT INTO stock_snapshots (product_id, stock) SELECT id, stock FROM u`

// Evaluate records the evaluation it starts: a repeat is a second run, no effect.
func Evaluate(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO strategy_evaluation_runs (strategy_id) VALUES ($1)", string(t.Payload()))
	return err
}

// EvaluateAt gives the run's start from the job: a repeat records the same run twice.
func EvaluateAt(ctx context.Context, t *asynq.Task) error { // want EvaluateAt:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	at, _ := time.Parse(time.RFC3339, t.Type())
	_, err := db.ExecContext(ctx, "INSERT INTO strategy_evaluation_runs (strategy_id, started_at) VALUES ($1, $2)", string(t.Payload()), at) // want `handler EvaluateAt: SQL write not safe to repeat: INSERT into strategy_evaluation_runs adds a row on every run`
	return err
}

// SyncNow records the sync it starts, stamped with now() in the statement: no effect.
func SyncNow(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO sync_runs (source, started_at) VALUES ($1, now())", string(t.Payload()))
	return err
}

// SyncClock records the sync it starts, stamped with time.Now(): no effect.
func SyncClock(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO sync_runs (source, started_at) VALUES ($1, $2)", string(t.Payload()), time.Now().UTC())
	return err
}

// QueuePipeline asks for a pipeline run that a runner starts later: a repeat runs the
// pipeline twice, reported.
func QueuePipeline(ctx context.Context, t *asynq.Task) error { // want QueuePipeline:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO pipeline_runs (pipeline_id) VALUES ($1)", string(t.Payload())) // want `handler QueuePipeline: SQL write not safe to repeat: INSERT into pipeline_runs adds a row on every run`
	return err
}

// StartShift starts a courier's shift now: the table is no record of runs, reported.
func StartShift(ctx context.Context, t *asynq.Task) error { // want StartShift:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO courier_shifts (courier_id) VALUES ($1)", string(t.Payload())) // want `handler StartShift: SQL write not safe to repeat: INSERT into courier_shifts adds a row on every run`
	return err
}

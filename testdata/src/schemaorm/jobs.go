// Package schemaorm exercises ORM inserts judged by the unique keys the models' tags declare // want package:"has effects"
// (db: orders.external_id and webhook_deliveries.event_id are unique, payments are keyed by
// ref, events and notices have only a generated id).
package schemaorm

import (
	"context"
	"database/sql"
	"errors"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"schemaorm/db"
)

var (
	gdb *gorm.DB
	bdb *bun.DB
	sdb *sql.DB
)

// CreateOrder inserts by the external id, which is unique: a redelivery fails on the key.
func CreateOrder(ctx context.Context, t *asynq.Task) error { // want CreateOrder:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return gdb.WithContext(ctx).Create(&db.Order{ExternalID: string(t.Payload()), Amount: 5}).Error // want `handler CreateOrder: GORM Create \(INSERT\) of Order: INSERT without conflict handling into orders fails on a repeat: the unique key idx_orders_external_id \(UNIQUE \(external_id\), \S*db/models.go:13\) already holds the first run's row, so a redelivery gets a duplicate-key error every time and the job retries until it is dead; take that error as done, or add ON CONFLICT \(external_id\) DO NOTHING`
}

// CreateOrderOnce takes the key's duplicate error as done: protected.
func CreateOrderOnce(ctx context.Context, t *asynq.Task) error { // want CreateOrderOnce:`effects sql.write:protected\(\(\*gorm.DB\).Create\)`
	o := db.Order{}
	o.ExternalID = string(t.Payload())
	err := gdb.WithContext(ctx).Create(&o).Error
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return nil
	}
	return err
}

// CreateOrderUpsert names the key in its conflict clause: protected.
func CreateOrderUpsert(ctx context.Context, t *asynq.Task) error { // want CreateOrderUpsert:`effects sql.write:protected\(\(\*gorm.DB\).Create\)`
	return gdb.Clauses(clause.OnConflict{DoNothing: true}).Create(&db.Order{ExternalID: string(t.Payload())}).Error
}

// CreateOrderFresh makes the external id anew: no key to fail on; the builder's own verdict.
func CreateOrderFresh(ctx context.Context, t *asynq.Task) error { // want CreateOrderFresh:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return gdb.Create(&db.Order{ExternalID: uuid.NewString()}).Error // want `handler CreateOrderFresh: GORM Create \(INSERT\) without conflict handling`
}

// RecordEvent adds an event, whose only key is its id: a repeat adds a row.
func RecordEvent(ctx context.Context, t *asynq.Task) error { // want RecordEvent:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return gdb.Create(&db.Event{Kind: string(t.Payload())}).Error // want `handler RecordEvent: GORM Create \(INSERT\) of Event adds a row to events on every run: events has no unique key besides id, made anew on every insert \(\S*db/models.go:18\)`
}

// RecordEventUpsert's conflict clause absorbs nothing: no key of events can conflict.
func RecordEventUpsert(ctx context.Context, t *asynq.Task) error { // want RecordEventUpsert:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return gdb.Clauses(clause.OnConflict{DoNothing: true}).Create(&db.Event{Kind: string(t.Payload())}).Error // want `handler RecordEventUpsert: GORM Create \(INSERT\) of Event with conflict handling absorbs nothing: events has no unique key besides id`
}

// RecordEventSQL writes the gorm-declared table with SQL text: the same keys judge it.
func RecordEventSQL(ctx context.Context, t *asynq.Task) error { // want RecordEventSQL:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := sdb.ExecContext(ctx, "INSERT INTO events (kind) VALUES ($1) ON CONFLICT DO NOTHING", string(t.Payload())) // want `handler RecordEventSQL: SQL write not safe to repeat: upsert \(ON CONFLICT\) absorbs nothing: events has no unique key besides id`
	return err
}

// Charge is keyed by the provider's reference, its primary key.
func Charge(ctx context.Context, t *asynq.Task) error { // want Charge:`effects sql.write:unprotected\(\(\*gorm.DB\).Create\)`
	return gdb.Create(&db.Payment{Ref: string(t.Payload()), Amount: 1}).Error // want `handler Charge: GORM Create \(INSERT\) of Payment: INSERT without conflict handling into payments fails on a repeat: the unique key payments_pkey \(PRIMARY KEY \(ref\)`
}

// Deliver inserts with bun by the event id, which is unique.
func Deliver(ctx context.Context, t *asynq.Task) error { // want Deliver:`effects sql.write:unprotected\(\(\*bun.InsertQuery\).Exec\)`
	_, err := bdb.NewInsert().Model(&db.Delivery{EventID: string(t.Payload())}).Exec(ctx) // want `handler Deliver: bun INSERT of Delivery: INSERT without conflict handling into webhook_deliveries fails on a repeat: the unique key webhook_deliveries_event_id_key \(UNIQUE \(event_id\)`
	return err
}

// DeliverOnce's ON CONFLICT names the key: protected.
func DeliverOnce(ctx context.Context, t *asynq.Task) error { // want DeliverOnce:`effects sql.write:protected\(\(\*bun.InsertQuery\).Exec\)`
	d := &db.Delivery{EventID: string(t.Payload())}
	_, err := bdb.NewInsert().Model(d).On("CONFLICT (event_id) DO NOTHING").Exec(ctx)
	return err
}

// Notify adds a notice, keyed by its id alone.
func Notify(ctx context.Context, t *asynq.Task) error { // want Notify:`effects sql.write:unprotected\(\(\*bun.InsertQuery\).Exec\)`
	_, err := bdb.NewInsert().Model(&db.Notice{Body: string(t.Payload())}).Exec(ctx) // want `handler Notify: bun INSERT of Notice adds a row to notices on every run: notices has no unique key besides id`
	return err
}

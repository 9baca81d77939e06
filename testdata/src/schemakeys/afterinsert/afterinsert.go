// Package afterinsert holds handlers that insert an order under its unique key and then // want package:"has effects" package:"retries asynq:order:registered=unset"
// publish, leaving when the insert fails: the publish runs only on the run that inserted
// the row. Twins publish whatever the insert did, or insert with a key made anew.
package afterinsert

import (
	"context"
	"database/sql"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"schemakeys/store"
)

var (
	q      *store.Queries
	db     *sql.DB
	client *asynq.Client
)

// Register inserts the order and announces it once: a redelivery fails on the key and
// leaves before the announcement.
func Register(ctx context.Context, t *asynq.Task) error { // want Register:`effects publish:claimed\(\(\*asynq.Client\).Enqueue\) sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if err := q.InsertOrder(ctx, store.InsertOrderParams{ExternalID: string(t.Payload()), Amount: 1}); err != nil { // want `handler Register: SQL write not safe to repeat: INSERT without conflict handling into orders fails on a repeat`
		return err
	}
	_, err := client.Enqueue(asynq.NewTask("order:registered", t.Payload()))
	return err
}

// RegisterDirect makes the insert itself, its error checked on the next line.
func RegisterDirect(ctx context.Context, t *asynq.Task) error { // want RegisterDirect:`effects publish:claimed\(\(\*asynq.Client\).Enqueue\) sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO orders (external_id, amount) VALUES ($1, $2)", string(t.Payload()), 1) // want `handler RegisterDirect: SQL write not safe to repeat: INSERT without conflict handling into orders fails on a repeat`
	if err != nil {
		return err
	}
	_, err = client.Enqueue(asynq.NewTask("order:registered", t.Payload()))
	return err
}

// Announce announces whatever the insert did: its error is only logged, so the insert's
// repeat stops at the key (a dropped error), and the announcement goes out again.
func Announce(ctx context.Context, t *asynq.Task) error { // want Announce:`effects publish:unprotected\(\(\*asynq.Client\).Enqueue\) sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	if err := q.InsertOrder(ctx, store.InsertOrderParams{ExternalID: string(t.Payload()), Amount: 1}); err != nil {
		println(err.Error())
	}
	_, err := client.Enqueue(asynq.NewTask("order:registered", t.Payload())) // want `handler Announce: asynq task enqueued without a deduplication id`
	return err
}

// RegisterFresh inserts under a key made anew: every run inserts and announces.
func RegisterFresh(ctx context.Context, t *asynq.Task) error { // want RegisterFresh:`effects publish:unprotected\(\(\*asynq.Client\).Enqueue\) sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if err := q.InsertOrder(ctx, store.InsertOrderParams{ExternalID: uuid.NewString(), Amount: 1}); err != nil { // want `handler RegisterFresh: SQL write not safe to repeat: INSERT without conflict handling into orders: a new row on every run`
		return err
	}
	_, err := client.Enqueue(asynq.NewTask("order:registered", t.Payload())) // want `handler RegisterFresh: asynq task enqueued without a deduplication id`
	return err
}

// RegisterInTx inserts on a transaction: until the commit a crash undoes the row, and the
// announcement made before it runs again.
func RegisterInTx(ctx context.Context, t *asynq.Task) error { // want RegisterInTx:`effects publish:unprotected\(\(\*asynq.Client\).Enqueue\) sql.write:unprotected\(\(\*sql.Tx\).ExecContext\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO orders (external_id, amount) VALUES ($1, $2)", string(t.Payload()), 1); err != nil { // want `handler RegisterInTx: SQL write not safe to repeat: INSERT without conflict handling into orders fails on a repeat`
		return err
	}
	if _, err := client.Enqueue(asynq.NewTask("order:registered", t.Payload())); err != nil { // want `handler RegisterInTx: asynq task enqueued without a deduplication id`
		return err
	}
	return tx.Commit()
}

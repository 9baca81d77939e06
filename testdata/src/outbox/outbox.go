// Package outbox: a message put into the runtime's transactional outbox (outbox.Put, // want package:"has effects" package:`retries asynq:receipt=unset`
// PutPgx) in the handler's transaction is an SQL write that commits with it, keyed by the
// message's ID: a redelivered handler's second Put of the same ID writes nothing. It is no
// publish: the relay publishes it after the commit. An ID made from the job is a stable
// key; one made anew on every run (uuid) writes a second message.
package outbox

import (
	"context"
	"database/sql"
	"time"

	"github.com/chokaq/idemlint/idempotency/outbox"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
)

var (
	db     *sql.DB
	pool   *pgxpool.Pool
	client *asynq.Client
)

// Publishing from the handler: a retry after the enqueue publishes again.
func EnqueueReceipt(ctx context.Context, t *asynq.Task) error { // want EnqueueReceipt:`effects publish:unprotected\(\(\*asynq.Client\).Enqueue\)`
	_, err := client.Enqueue(asynq.NewTask("receipt", t.Payload())) // want `handler EnqueueReceipt: asynq task enqueued without a deduplication id \(EnqueueReceipt -> \(\*asynq.Client\).Enqueue\); missing: key, enforcement$`
	return err
}

// The same message through the outbox, its ID made from the job: safe to repeat.
func OutboxReceipt(ctx context.Context, t *asynq.Task) error { // want OutboxReceipt:`effects sql.write:protected\(outbox.Put\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	id, err := outbox.ID("receipt", string(t.Payload()))
	if err != nil {
		return err
	}
	if err := outbox.Put(ctx, tx, outbox.Message{ID: id, Topic: "receipt", Payload: t.Payload()}); err != nil {
		return err
	}
	return tx.Commit()
}

// An ID from the claim the middleware put in ctx (ClaimID), set on a message variable, in
// a pgx transaction.
func OutboxClaimID(ctx context.Context, t *asynq.Task) error { // want OutboxClaimID:`effects sql.write:protected\(outbox.PutPgx\)`
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	msg := outbox.Message{Topic: "receipt", Payload: t.Payload()}
	if msg.ID, err = outbox.ClaimID(ctx, "receipt"); err != nil { // the field set with the error
		return err
	}
	if err := outbox.PutPgx(ctx, tx, msg); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// An ID made anew on every run: a redelivery writes a second message.
func OutboxRandomID(ctx context.Context, t *asynq.Task) error { // want OutboxRandomID:`effects sql.write:unstable-key\(outbox.Put\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := outbox.Put(ctx, tx, outbox.Message{ID: uuid.NewString(), Topic: "receipt"}); err != nil { // want `handler OutboxRandomID: outbox message with a key that changes on every retry \(made from uuid.NewString\) \(OutboxRandomID -> outbox.Put\); missing: key$`
		return err
	}
	return tx.Commit()
}

// No ID at all (Put refuses it, but the code says nothing of which message it is).
func OutboxNoID(ctx context.Context, t *asynq.Task) error { // want OutboxNoID:`effects sql.write:unprotected\(outbox.Put\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := outbox.Put(ctx, tx, outbox.Message{Topic: "receipt"}); err != nil { // want `handler OutboxNoID: outbox message without an idempotency key \(OutboxNoID -> outbox.Put\); missing: key, enforcement$`
		return err
	}
	return tx.Commit()
}

// The relay's publisher is a function value handed to the outbox, not to the middleware:
// it publishes messages after their commit and is no handler (no diagnostic, no inventory).
func newRelay() (*outbox.Relay, error) {
	return outbox.NewRelay(db, outbox.Config{
		Dialect:   outbox.Postgres,
		Retention: 14 * 24 * time.Hour,
		Publisher: outbox.PublisherFunc(func(ctx context.Context, msg outbox.Message) error {
			_, err := client.EnqueueContext(ctx, asynq.NewTask(msg.Topic, msg.Payload), asynq.TaskID(msg.ID))
			return err
		}),
	})
}

// Package nilcheck takes an outbox row with DELETE ... RETURNING and leaves when no row came // want package:"has effects" package:`retries asynq:order:created=unset`
// back, testing the error as services write it: err != nil && errors.Is(err, ErrNoRows),
// which errors.Is alone already says. A test of the nil check with something else stays
// no claim.
package nilcheck

import (
	"context"
	"errors"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

var (
	pool   *pgxpool.Pool
	client *asynq.Client
	strict bool
)

// Republish leaves when the row is gone, the nil check written out first.
func Republish(ctx context.Context, t *asynq.Task) error { // want Republish:`effects publish:claimed\(\(\*asynq.Client\).Enqueue\) sql.write:protected\(\(\*pgxpool.Pool\).QueryRow\)`
	var payload []byte
	err := pool.QueryRow(ctx, "DELETE FROM outbox WHERE id = $1 RETURNING payload", string(t.Payload())).Scan(&payload)
	if err != nil && errors.Is(err, pgx.ErrNoRows) {
		return nil
	} else if err != nil {
		return err
	}
	_, err = client.Enqueue(asynq.NewTask("order:created", payload))
	return err
}

// RepublishIfStrict leaves on a missing row only when a setting says so: otherwise a
// redelivery goes on and enqueues again.
func RepublishIfStrict(ctx context.Context, t *asynq.Task) error { // want RepublishIfStrict:`effects publish:unprotected\(\(\*asynq.Client\).Enqueue\) sql.write:protected\(\(\*pgxpool.Pool\).QueryRow\)`
	var payload []byte
	err := pool.QueryRow(ctx, "DELETE FROM outbox WHERE id = $1 RETURNING payload", string(t.Payload())).Scan(&payload)
	if strict && errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	_, err = client.Enqueue(asynq.NewTask("order:created", payload)) // want `handler RepublishIfStrict: asynq task enqueued without a deduplication id`
	return err
}

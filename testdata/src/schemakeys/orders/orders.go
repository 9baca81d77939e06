// Package orders calls the store's insert with the job's key, with one made anew, and // want package:"has effects"
// through a helper that passes its own parameter on.
package orders

import (
	"context"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"

	"schemakeys/store"
)

var q *store.Queries

// PlaceOrder passes the job's key: a redelivery fails on orders' unique key.
func PlaceOrder(ctx context.Context, t *asynq.Task) error { // want PlaceOrder:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return q.InsertOrder(ctx, store.InsertOrderParams{ExternalID: string(t.Payload()), Amount: 1}) // want `handler PlaceOrder: SQL write not safe to repeat: INSERT without conflict handling into orders fails on a repeat: the unique key orders_external_id_key`
}

// PlaceOrderFresh makes the key anew: the insert adds an order on every run.
func PlaceOrderFresh(ctx context.Context, t *asynq.Task) error { // want PlaceOrderFresh:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	arg := store.InsertOrderParams{Amount: 1}
	arg.ExternalID = uuid.NewString()
	return q.InsertOrder(ctx, arg) // want `handler PlaceOrderFresh: SQL write not safe to repeat: INSERT without conflict handling into orders: a new row on every run, its unique key orders_external_id_key \(UNIQUE \(external_id\), \S*000001_orders.up.sql:3\) given values made anew \(\(\*store.Queries\).InsertOrder is given one made from uuid.NewString\)`
}

// save passes its key on: its callers decide.
func save(ctx context.Context, key string) error {
	return q.InsertOrder(ctx, store.InsertOrderParams{ExternalID: key})
}

// Reorder hands save a new key.
func Reorder(ctx context.Context, t *asynq.Task) error { // want Reorder:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return save(ctx, uuid.NewString()) // want `handler Reorder: SQL write not safe to repeat: INSERT without conflict handling into orders: a new row on every run, .* \(orders.save is given one made from uuid.NewString\)`
}

// Resend hands save the job's key.
func Resend(ctx context.Context, t *asynq.Task) error { // want Resend:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return save(ctx, string(t.Payload())) // want `handler Resend: SQL write not safe to repeat: INSERT without conflict handling into orders fails on a repeat`
}

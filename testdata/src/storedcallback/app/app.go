// Package app wires its handler into the mq consumer through a local variable. // want package:"has effects"
package app

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"

	"storedcallback/mq"
)

var db *sql.DB

// Start gives the consumer a literal held in a variable: it is the orders' handler.
func Start(ctx context.Context, r *kafka.Reader) error { // want Start:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	handler := func(ctx context.Context, o mq.Order) error {
		_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", o.ID) // want `handler func literal in Start: SQL write not safe to repeat: INSERT without conflict handling`
		return err
	}
	return mq.NewConsumer(r, handler).Run(ctx)
}

// Nightly gives the retrier a literal with the same write: a retry helper runs no
// deliveries, and its function is no handler.
func Nightly(ctx context.Context) error { // want Nightly:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	job := func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "INSERT INTO reports (day) VALUES (now())")
		return err
	}
	return mq.NewRetrier(job).Do(ctx)
}

// Package service wires the worker: its orders handler inserts, its producer writes to the // want package:"has effects"
// dead-letter topic.
package service

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"

	"handoff/publisher"
)

type orders struct{ db *sql.DB }

func (o orders) Handle(ctx context.Context, value []byte) error { // want Handle:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := o.db.ExecContext(ctx, "INSERT INTO orders (body) VALUES ($1)", value) // want `handler \(orders\).Handle: SQL write not safe to repeat`
	return err
}

type producer struct{ w *kafka.Writer }

func (p producer) Publish(ctx context.Context, key string, value []byte) error { // want Publish:`effects publish:unprotected\(\(\*kafka.Writer\).WriteMessages\)`
	return p.w.WriteMessages(ctx, kafka.Message{Key: []byte(key), Value: value})
}

func Start(ctx context.Context, r *kafka.Reader, db *sql.DB, w *kafka.Writer) {
	publisher.NewWorker(r, orders{db: db}, producer{w: w}).Run(ctx)
}

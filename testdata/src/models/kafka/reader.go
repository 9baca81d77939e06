package kafka

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"
)

var db *sql.DB

// Consume is a kafka-go consumer loop: a message whose offset is not committed when the
// process stops is fetched again, so the loop after FetchMessage is a handler.
func Consume(ctx context.Context, r *kafka.Reader) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, "UPDATE stock SET reserved = reserved + 1 WHERE sku = $1", string(m.Key)); err != nil { // want `handler receive loop in Consume: SQL write not safe to repeat: relative UPDATE of reserved \(receive loop in Consume -> \(\*sql.DB\).ExecContext\); missing: key, enforcement`
			return err
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

// ConsumeAbsolute is the twin whose write converges: no finding.
func ConsumeAbsolute(ctx context.Context, r *kafka.Reader) error {
	for {
		m, err := r.ReadMessage(ctx)
		if err != nil {
			return err
		}
		if _, err := db.ExecContext(ctx, "UPDATE stock SET reserved = 1 WHERE sku = $1", string(m.Key)); err != nil {
			return err
		}
	}
}

// commitFirst commits before its write: after the commit a restart reads on from the next
// offset, so the write is not repeated by a redelivery. The loop's handler ends at the
// commit: no finding.
func commitFirst(ctx context.Context, r *kafka.Reader) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if err := r.CommitMessages(ctx, m); err != nil {
			return err
		}
		_, _ = db.ExecContext(ctx, "UPDATE stock SET reserved = reserved + 1 WHERE sku = $1", string(m.Key))
	}
}

// commitLast is its twin with the write before the commit: repeated on redelivery.
func commitLast(ctx context.Context, r *kafka.Reader) error {
	for {
		m, err := r.FetchMessage(ctx)
		if err != nil {
			return err
		}
		_, _ = db.ExecContext(ctx, "UPDATE stock SET reserved = reserved + 1 WHERE sku = $1", string(m.Key)) // want `handler receive loop in commitLast: SQL write not safe to repeat: relative UPDATE of reserved`
		if err := r.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

// Boot is a handler (declared) that starts the consumer: the loop's effects are the loop's
// handler's, per message it fetches, not Boot's; a retried Boot starts a consumer, it does
// not repeat the messages' writes.
//
//idemlint:handler
func Boot(ctx context.Context, r *kafka.Reader) error {
	go Consume(ctx, r)
	return nil
}

// Prepare is Boot's twin, with a write of its own before it starts the consumer: that one is
// Prepare's.
//
//idemlint:handler
func Prepare(ctx context.Context, r *kafka.Reader) error { // want Prepare:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if _, err := db.ExecContext(ctx, "UPDATE consumers SET starts = starts + 1"); err != nil { // want `handler Prepare: SQL write not safe to repeat: relative UPDATE of starts`
		return err
	}
	go Consume(ctx, r)
	return nil
}

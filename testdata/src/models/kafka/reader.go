package kafka

import (
	"context"
	"database/sql"

	"github.com/segmentio/kafka-go"
)

var db *sql.DB

// Consume is a kafka-go consumer loop: a message whose offset is not committed when the
// process stops is fetched again, so the loop after FetchMessage is a handler.
func Consume(ctx context.Context, r *kafka.Reader) error { // want Consume:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
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
func ConsumeAbsolute(ctx context.Context, r *kafka.Reader) error { // want ConsumeAbsolute:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
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

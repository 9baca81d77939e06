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

// Package gocloud exercises the Go CDK pubsub model: Receive loops, which are handlers until // want package:"has effects"
// the message is acknowledged, and sends, which have no deduplication.
package gocloud

import (
	"context"
	"database/sql"

	"gocloud.dev/pubsub"
)

var db *sql.DB

// Consume records each message: a message not acknowledged is received again, and the
// INSERT repeats.
func Consume(ctx context.Context, sub *pubsub.Subscription) {
	for {
		msg, err := sub.Receive(ctx)
		if err != nil {
			return
		}
		if _, err := db.ExecContext(ctx, "INSERT INTO events (body) VALUES ($1)", msg.Body); err != nil { // want `handler receive loop in Consume: SQL write not safe to repeat: INSERT without conflict handling`
			msg.Nack()
			continue
		}
		msg.Ack()
	}
}

// ConsumeUpsert is its twin keyed by an id the message carries: a redelivery converges.
func ConsumeUpsert(ctx context.Context, sub *pubsub.Subscription) {
	for {
		msg, err := sub.Receive(ctx)
		if err != nil {
			return
		}
		db.ExecContext(ctx, "INSERT INTO events (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", msg.Metadata["id"], msg.Body)
		msg.Ack()
	}
}

// Forward sends each message on: a redelivery sends it again.
func Forward(ctx context.Context, sub *pubsub.Subscription, topic *pubsub.Topic) {
	for {
		msg, err := sub.Receive(ctx)
		if err != nil {
			return
		}
		if err := topic.Send(ctx, &pubsub.Message{Body: msg.Body}); err != nil { // want `handler receive loop in Forward: Go CDK pubsub message sent with no deduplication`
			msg.Nack()
			continue
		}
		msg.Ack()
	}
}

// AckFirst acknowledges before it handles: the message is never delivered again, and
// its effect is at most once, not reported.
func AckFirst(ctx context.Context, sub *pubsub.Subscription) {
	for {
		msg, err := sub.Receive(ctx)
		if err != nil {
			return
		}
		msg.Ack()
		db.ExecContext(ctx, "INSERT INTO events (body) VALUES ($1)", msg.Body)
	}
}

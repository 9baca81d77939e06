// Package pubsub exercises the Pub/Sub model: the function given to Receive is a handler; // want package:"has effects"
// a publish from it is flagged, and a guarded write is not.
package pubsub

import (
	"context"
	"database/sql"

	"cloud.google.com/go/pubsub/v2"
)

var (
	db  *sql.DB
	out *pubsub.Publisher
)

func Run(ctx context.Context, sub *pubsub.Subscriber) error { // want Run:`effects publish:unprotected\(\(\*pubsub.Publisher\).Publish\)`
	return sub.Receive(ctx, func(ctx context.Context, m *pubsub.Message) {
		out.Publish(ctx, &pubsub.Message{Data: m.Data}) // want `handler func literal in Run: Pub/Sub message sent with no deduplication \(func literal in Run -> \(\*pubsub.Publisher\).Publish\); missing: key, enforcement`
		m.Ack()
	})
}

func onMessage(ctx context.Context, m *pubsub.Message) {
	if _, err := db.ExecContext(ctx, "INSERT INTO seen (id) VALUES ($1) ON CONFLICT DO NOTHING", m.ID); err != nil {
		m.Nack()
		return
	}
	m.Ack()
}

func RunNamed(ctx context.Context, sub *pubsub.Subscriber) error { // want RunNamed:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	return sub.Receive(ctx, onMessage)
}

func onMessageInsert(ctx context.Context, m *pubsub.Message) {
	_, _ = db.ExecContext(ctx, "INSERT INTO seen (id) VALUES ($1)", m.ID) // want `handler onMessageInsert: SQL write not safe to repeat: INSERT without conflict handling`
	m.Ack()
}

func RunInsert(ctx context.Context, sub *pubsub.Subscriber) error { // want RunInsert:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return sub.Receive(ctx, onMessageInsert)
}

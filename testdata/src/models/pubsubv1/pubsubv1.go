// Package pubsubv1 exercises the Pub/Sub v1 model: the function given to // want package:"has effects"
// Subscription.Receive is a handler; a publish to a Topic from it is flagged, and a guarded
// write is not.
package pubsubv1

import (
	"context"
	"database/sql"

	"cloud.google.com/go/pubsub"
)

var (
	db  *sql.DB
	out *pubsub.Topic
)

func Run(ctx context.Context, sub *pubsub.Subscription) error { // want Run:`effects publish:unprotected\(\(\*pubsub.Topic\).Publish\)`
	return sub.Receive(ctx, func(ctx context.Context, m *pubsub.Message) {
		out.Publish(ctx, &pubsub.Message{Data: m.Data}) // want `handler func literal in Run: Pub/Sub message sent with no deduplication \(func literal in Run -> \(\*pubsub.Topic\).Publish\); missing: key, enforcement`
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

func RunNamed(ctx context.Context, sub *pubsub.Subscription) error { // want RunNamed:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	return sub.Receive(ctx, onMessage)
}

package idemwatermill

import (
	"context"
	"fmt"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/chokaq/idemlint/idempotency/outbox"
)

// OutboxPublisher returns an outbox.Publisher that publishes each outbox message with a
// Watermill publisher to the topic msg.Topic, as a message whose UUID is msg.ID, whose
// payload is msg.Payload and whose metadata is msg.Headers. A message the relay publishes
// again after a crash has the same UUID: deduplicate on it where the broker cannot (most
// cannot), with the idempotency middleware keyed by UUIDKey on the consumer's handler
// (Watermill's middleware.Deduplicator remembers IDs in one process's memory only).
func OutboxPublisher(pub message.Publisher) outbox.Publisher {
	return outbox.PublisherFunc(func(ctx context.Context, msg outbox.Message) error {
		m := message.NewMessage(msg.ID, msg.Payload)
		for k, v := range msg.Headers {
			m.Metadata.Set(k, v)
		}
		m.SetContext(ctx)
		if err := pub.Publish(msg.Topic, m); err != nil {
			return fmt.Errorf("idemwatermill: publishing outbox message %q: %w", msg.ID, err)
		}
		return nil
	})
}

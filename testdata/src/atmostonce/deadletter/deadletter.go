// Package deadletter holds kafka-go consumer loops that set a message aside in a // want package:"has effects"
// dead-letter queue when its handling failed: through a helper named for the queue, and
// through the writer held in a field named so. A repeat sets the same message aside again,
// which is the queue's bookkeeping, not the business's. An event of the failure published
// to another topic stays reported.
package deadletter

import (
	"context"

	"github.com/segmentio/kafka-go"
)

// Consumer reads orders and sets aside those it cannot handle.
type Consumer struct {
	reader *kafka.Reader
	dlq    *kafka.Writer
	events *kafka.Writer
}

func handle(ctx context.Context, m kafka.Message) error { return nil }

// writeDLQ sets the failed message aside, with where it came from.
func (c *Consumer) writeDLQ(ctx context.Context, m kafka.Message) bool { // want writeDLQ:`effects publish:protected\(\(\*kafka.Writer\).WriteMessages\)`
	out := kafka.Message{Key: m.Key, Value: m.Value}
	return c.dlq.WriteMessages(ctx, out) == nil
}

// Run sets a failed message aside through writeDLQ, then commits it.
func (c *Consumer) Run(ctx context.Context) error {
	for {
		m, err := c.reader.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if err := handle(ctx, m); err != nil {
			if !c.writeDLQ(ctx, m) {
				continue
			}
		}
		if err := c.reader.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

// RunDirect writes to the dead-letter writer itself.
func (c *Consumer) RunDirect(ctx context.Context) error {
	for {
		m, err := c.reader.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if err := handle(ctx, m); err != nil {
			if err := c.dlq.WriteMessages(ctx, m); err != nil {
				continue
			}
		}
		if err := c.reader.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

// RunFailedEvent publishes an order-failed event on failure: its consumers act on it, and
// a repeat publishes it twice.
func (c *Consumer) RunFailedEvent(ctx context.Context) error {
	for {
		m, err := c.reader.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if err := handle(ctx, m); err != nil {
			if err := c.events.WriteMessages(ctx, kafka.Message{Key: m.Key, Value: []byte("failed")}); err != nil { // want `handler receive loop in \(\*Consumer\).RunFailedEvent: Kafka message sent with no deduplication`
				continue
			}
		}
		if err := c.reader.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

// sendToDeadLetter sets the message aside on the shared writer, under the queue's topic.
func (c *Consumer) sendToDeadLetter(ctx context.Context, m kafka.Message) error { // want sendToDeadLetter:`effects publish:unprotected\(\(\*kafka.Writer\).WriteMessages\)`
	return c.events.WriteMessages(ctx, kafka.Message{Topic: "orders.parked", Key: m.Key, Value: m.Value})
}

// send writes the message to topic on the shared writer.
func (c *Consumer) send(ctx context.Context, topic string, m kafka.Message) error { // want send:`effects publish:unprotected\(\(\*kafka.Writer\).WriteMessages\)`
	return c.events.WriteMessages(ctx, kafka.Message{Topic: topic, Key: m.Key, Value: m.Value})
}

// RunNamedHelper sets a failed message aside through a helper whose name says where, and
// one given the queue's topic.
func (c *Consumer) RunNamedHelper(ctx context.Context) error {
	for {
		m, err := c.reader.FetchMessage(ctx)
		if err != nil {
			return err
		}
		if err := handle(ctx, m); err != nil {
			if err := c.sendToDeadLetter(ctx, m); err != nil {
				continue
			}
			if err := c.send(ctx, "orders.dlq", m); err != nil {
				continue
			}
		}
		if err := c.reader.CommitMessages(ctx, m); err != nil {
			return err
		}
	}
}

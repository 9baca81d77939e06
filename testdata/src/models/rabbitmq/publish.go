package rabbitmq

import (
	"context"

	amqp "github.com/rabbitmq/amqp091-go"
)

// relay republishes each delivery with no MessageId: consumers cannot tell the repeat.
func relay(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("in", "", false, false, false, false, nil)
	for d := range msgs {
		ch.PublishWithContext(ctx, "", "out", false, false, amqp.Publishing{Body: d.Body}) // want `handler receive loop in relay: RabbitMQ message without an idempotency key \(receive loop in relay -> \(\*amqp091.Channel\).PublishWithContext\); missing: key, enforcement$`
		d.Ack(false)
	}
}

// relayKeyed carries the delivery's own MessageId: the key is answered, but RabbitMQ does not
// deduplicate, so enforcement is left to every consumer.
func relayKeyed(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.Consume("in", "", false, false, false, false, nil)
	for d := range msgs {
		ch.PublishWithContext(ctx, "", "out", false, false, amqp.Publishing{MessageId: d.MessageId, Body: d.Body}) // want `handler receive loop in relayKeyed: RabbitMQ message with a message id: each consumer must deduplicate by it, unless the broker is configured to \(receive loop in relayKeyed -> \(\*amqp091.Channel\).PublishWithContext\); missing: enforcement$`
		d.Ack(false)
	}
}

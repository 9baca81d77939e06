// Package mq is an application's RabbitMQ helper, in a package of its own: Consume ranges
// over a queue's deliveries, hands each to the callback and acks it. The callers' functions
// are the handlers (a registration wrapper, exported as a fact).
package mq

import (
	"context"

	amqp "github.com/rabbitmq/amqp091-go"
)

// Handler handles one delivery's body.
type Handler func(ctx context.Context, body []byte) error

// Consume hands each delivery of queue to h, acking it when h succeeds.
func Consume(ctx context.Context, ch *amqp.Channel, queue string, h Handler) error {
	msgs, err := ch.ConsumeWithContext(ctx, queue, "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case d := <-msgs:
			if err := h(ctx, d.Body); err != nil {
				_ = d.Nack(false, true)
				continue
			}
			_ = d.Ack(false)
		}
	}
}

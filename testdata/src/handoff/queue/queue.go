// Package queue is a service's consumer layer over RabbitMQ: its Consume does not handle // want package:"has effects" package:"carries\\(handoff/queue.Message github.com/streadway/amqp\\)"
// the deliveries it receives but sends each on, as a Message of its own that keeps the
// delivery to acknowledge it, over the channel it returns. The readers of that channel
// are the handlers.
package queue

import (
	"github.com/streadway/amqp"
)

// Message is one delivery as the service sees it.
type Message struct {
	ID       string
	Payload  []byte
	delivery amqp.Delivery
}

// Ack acknowledges the delivery.
func (m Message) Ack() error { return m.delivery.Ack(false) }

// Reject rejects the delivery.
func (m Message) Reject() error { return m.delivery.Reject(false) }

// Consumer reads one queue.
type Consumer struct {
	ch    *amqp.Channel
	queue string
}

// Consume hands each delivery on as a Message: no handler itself.
func (c *Consumer) Consume() (<-chan Message, error) {
	msgs, err := c.ch.Consume(c.queue, "", false, false, false, false, nil)
	if err != nil {
		return nil, err
	}
	out := make(chan Message, 10)
	go func() {
		defer close(out)
		for d := range msgs {
			out <- Message{ID: d.MessageId, Payload: d.Body, delivery: d}
		}
	}()
	return out, nil
}

// Status is what a Consume loop reports of itself: no delivery in it.
type Status struct{ Received int }

// Count receives the deliveries of a queue and reports how many it saw: the status
// channel carries no delivery, and its reader is no handler.
func (c *Consumer) Count(status chan<- Status) {
	msgs, _ := c.ch.Consume(c.queue, "", false, false, false, false, nil)
	n := 0
	for d := range msgs {
		n++
		status <- Status{Received: n}
		_ = d.Ack(false)
	}
}

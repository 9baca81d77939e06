// Package mq is a company's consumer library over RabbitMQ, in a module of its own: the
// services that use it hand it their handlers as values (a callback kept by a
// constructor, an interface value, a callback given decoded payloads) or read the channel
// of messages it hands on.
package mq

import (
	"context"
	"encoding/json"

	"github.com/streadway/amqp"
)

// Message is a delivery as the services see it.
type Message struct {
	ID   string
	Body []byte
	d    amqp.Delivery
}

// Ack acknowledges the message.
func (m Message) Ack() error { return m.d.Ack(false) }

// HandlerFunc handles one message.
type HandlerFunc func(context.Context, Message) error

// Consumer keeps the handler it is given and runs it on each delivery.
type Consumer struct {
	ch     *amqp.Channel
	queue  string
	handle HandlerFunc
}

// NewConsumer keeps h, the handler of every delivery Run receives.
func NewConsumer(ch *amqp.Channel, queue string, h HandlerFunc) *Consumer {
	return &Consumer{ch: ch, queue: queue, handle: h}
}

// Run handles each delivery and acks it when its handler succeeds.
func (c *Consumer) Run(ctx context.Context) error {
	msgs, err := c.ch.Consume(c.queue, "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs {
		if err := c.handle(ctx, Message{ID: d.MessageId, Body: d.Body, d: d}); err != nil {
			_ = d.Nack(false, true)
			continue
		}
		_ = d.Ack(false)
	}
	return nil
}

// Subscribe acks each delivery, decodes it and calls f: what f is given runs at most once.
func Subscribe[T any](ch *amqp.Channel, queue string, f func(*T)) error {
	msgs, err := ch.Consume(queue, "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for d := range msgs {
		_ = d.Ack(false)
		var v T
		if err := json.Unmarshal(d.Body, &v); err != nil {
			continue
		}
		f(&v)
	}
	return nil
}

// Stream hands each delivery on as a Message over the channel it returns: its readers
// handle them and ack.
func Stream(ch *amqp.Channel, queue string) (<-chan Message, error) {
	msgs, err := ch.Consume(queue, "", false, false, false, false, nil)
	if err != nil {
		return nil, err
	}
	out := make(chan Message)
	go func() {
		defer close(out)
		for d := range msgs {
			out <- Message{ID: d.MessageId, Body: d.Body, d: d}
		}
	}()
	return out, nil
}

// Handler handles one message.
type Handler interface {
	Handle(context.Context, Message) error
}

// Worker keeps the Handler it is given and runs it on each delivery, in a goroutine.
type Worker struct {
	ch    *amqp.Channel
	queue string
	h     Handler
}

// NewWorker keeps h.
func NewWorker(ch *amqp.Channel, queue string, h Handler) *Worker {
	return &Worker{ch: ch, queue: queue, h: h}
}

// Start handles the queue's deliveries in the background.
func (w *Worker) Start(ctx context.Context) error {
	msgs, err := w.ch.Consume(w.queue, "", false, false, false, false, nil)
	if err != nil {
		return err
	}
	go func() {
		for d := range msgs {
			if w.h.Handle(ctx, Message{ID: d.MessageId, Body: d.Body, d: d}) == nil {
				_ = d.Ack(false)
			}
		}
	}()
	return nil
}

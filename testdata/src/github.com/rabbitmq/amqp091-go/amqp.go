// Package amqp091 is a stub of github.com/rabbitmq/amqp091-go v1.10.0 for the analyzer tests.
// It declares only what idemlint's models and test packages use, with the real
// signatures; apicheck keeps it in step with the real API.
package amqp091

import "context"

// Table is a field table (headers, arguments).
type Table map[string]interface{}

// Delivery is a message delivered to a consumer.
type Delivery struct {
	MessageId   string
	DeliveryTag uint64
	Body        []byte
}

// Ack acknowledges the delivery.
func (d Delivery) Ack(multiple bool) error { panic("stub") }

// Nack negatively acknowledges the delivery.
func (d Delivery) Nack(multiple, requeue bool) error { panic("stub") }

// Reject rejects the delivery.
func (d Delivery) Reject(requeue bool) error { panic("stub") }

// Publishing is a message to publish.
type Publishing struct {
	ContentType string
	MessageId   string
	Body        []byte
}

// Channel is an AMQP channel.
type Channel struct{}

// Consume starts delivering the queue's messages.
func (ch *Channel) Consume(queue, consumer string, autoAck, exclusive, noLocal, noWait bool, args Table) (<-chan Delivery, error) {
	panic("stub")
}

// Publish sends msg to an exchange.
func (ch *Channel) Publish(exchange, key string, mandatory, immediate bool, msg Publishing) error {
	panic("stub")
}

// Ack acknowledges deliveries up to tag.
func (ch *Channel) Ack(tag uint64, multiple bool) error { panic("stub") }

// Nack negatively acknowledges deliveries up to tag.
func (ch *Channel) Nack(tag uint64, multiple bool, requeue bool) error { panic("stub") }

// Reject rejects the delivery tag.
func (ch *Channel) Reject(tag uint64, requeue bool) error { panic("stub") }

// ConsumeWithContext is Consume, cancelled with ctx.
func (ch *Channel) ConsumeWithContext(ctx context.Context, queue, consumer string, autoAck, exclusive, noLocal, noWait bool, args Table) (<-chan Delivery, error) {
	panic("stub")
}

// DeferredConfirmation is a publisher confirmation to wait for.
type DeferredConfirmation struct{}

// PublishWithContext sends msg to an exchange.
func (ch *Channel) PublishWithContext(_ context.Context, exchange, key string, mandatory, immediate bool, msg Publishing) error {
	panic("stub")
}

// PublishWithDeferredConfirm sends msg and returns its confirmation.
func (ch *Channel) PublishWithDeferredConfirm(exchange, key string, mandatory, immediate bool, msg Publishing) (*DeferredConfirmation, error) {
	panic("stub")
}

// PublishWithDeferredConfirmWithContext sends msg and returns its confirmation.
func (ch *Channel) PublishWithDeferredConfirmWithContext(_ context.Context, exchange, key string, mandatory, immediate bool, msg Publishing) (*DeferredConfirmation, error) {
	panic("stub")
}

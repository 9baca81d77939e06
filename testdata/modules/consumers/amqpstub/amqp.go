// Package amqp is a stub of github.com/streadway/amqp v1.1.0 for the driver's tests: the
// part the consumers module uses, with the real signatures.
package amqp

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

// Channel is an AMQP channel.
type Channel struct{}

// Consume starts delivering the queue's messages.
func (ch *Channel) Consume(queue, consumer string, autoAck, exclusive, noLocal, noWait bool, args Table) (<-chan Delivery, error) {
	panic("stub")
}

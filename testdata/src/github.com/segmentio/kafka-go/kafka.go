// Package kafka is a stub of github.com/segmentio/kafka-go v0.4.51 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package kafka

import "context"

// Message is a Kafka message.
type Message struct {
	Topic string
	Key   []byte
	Value []byte
}

// Writer writes messages to Kafka.
type Writer struct {
	Topic string
}

// WriteMessages writes msgs.
func (w *Writer) WriteMessages(ctx context.Context, msgs ...Message) error { panic("stub") }

// Conn is a connection to a broker.
type Conn struct{}

// WriteMessages writes msgs on the connection.
func (c *Conn) WriteMessages(msgs ...Message) (int, error) { panic("stub") }

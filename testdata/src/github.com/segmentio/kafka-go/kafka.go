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

// ReaderConfig configures a Reader.
type ReaderConfig struct {
	Brokers []string
	GroupID string
	Topic   string
}

// Reader reads messages from Kafka.
type Reader struct{}

// NewReader creates a Reader.
func NewReader(config ReaderConfig) *Reader { panic("stub") }

// ReadMessage reads the next message, committing its offset first when the reader is
// in a consumer group.
func (r *Reader) ReadMessage(ctx context.Context) (Message, error) { panic("stub") }

// FetchMessage reads the next message without committing it.
func (r *Reader) FetchMessage(ctx context.Context) (Message, error) { panic("stub") }

// CommitMessages commits the offsets of msgs.
func (r *Reader) CommitMessages(ctx context.Context, msgs ...Message) error { panic("stub") }

// Package kafka is a stub of github.com/segmentio/kafka-go v0.4.47 for the driver's tests:
// the part the consumers module uses, with the real signatures.
package kafka

import "context"

// Message is a Kafka message.
type Message struct {
	Topic string
	Key   []byte
	Value []byte
}

// Reader reads messages of a topic.
type Reader struct{}

// FetchMessage reads the next message without committing it.
func (r *Reader) FetchMessage(ctx context.Context) (Message, error) { panic("stub") }

// CommitMessages commits the offsets of msgs.
func (r *Reader) CommitMessages(ctx context.Context, msgs ...Message) error { panic("stub") }

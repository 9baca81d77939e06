// Package pulsar is a stub of github.com/apache/pulsar-client-go/pulsar: a consumer's
// receives and acknowledgements, a producer's sends and the message they carry.
package pulsar

import (
	"context"
	"time"
)

// MessageID identifies a message.
type MessageID interface {
	Serialize() []byte
	LedgerID() int64
	EntryID() int64
}

// Message is a received message.
type Message interface {
	Topic() string
	Properties() map[string]string
	Payload() []byte
	ID() MessageID
	Key() string
	RedeliveryCount() uint32
}

// Consumer receives messages of a subscription.
type Consumer interface {
	Subscription() string
	Receive(context.Context) (Message, error)
	Chan() <-chan ConsumerMessage
	Ack(Message) error
	AckID(MessageID) error
	Nack(Message)
	Close()
}

// ConsumerMessage is a message with its consumer, as Chan delivers it.
type ConsumerMessage struct {
	Consumer
	Message
}

// ProducerMessage is a message to send.
type ProducerMessage struct {
	Payload    []byte
	Key        string
	Properties map[string]string
	EventTime  time.Time
	// SequenceID is the message's sequence id, by which a broker with deduplication enabled
	// drops a repeat from the same producer name.
	SequenceID *int64
}

// Producer sends messages to a topic.
type Producer interface {
	Topic() string
	Name() string
	Send(context.Context, *ProducerMessage) (MessageID, error)
	SendAsync(context.Context, *ProducerMessage, func(MessageID, *ProducerMessage, error))
	Flush() error
	Close()
}

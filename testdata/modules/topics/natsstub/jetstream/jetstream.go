// Package jetstream is a stub of github.com/nats-io/nats.go/jetstream v1.55.0
// for the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package jetstream

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
)

// PubAck is the stream's acknowledgement of a publish; Duplicate is set when the message
// id was seen within the stream's duplicate window.
type PubAck struct {
	Stream    string
	Sequence  uint64
	Duplicate bool
}

// PubAckFuture is the acknowledgement of an asynchronous publish.
type PubAckFuture interface {
	Ok() <-chan *PubAck
	Err() <-chan error
	Msg() *nats.Msg
}

type pubOpts struct{}

// PublishOpt configures a publish.
type PublishOpt func(*pubOpts) error

// WithMsgID sets the Nats-Msg-Id header, by which the stream drops duplicates.
func WithMsgID(id string) PublishOpt { panic("stub") }

// Publisher publishes to streams. JetStream embeds it.
type Publisher interface {
	Publish(ctx context.Context, subject string, payload []byte, opts ...PublishOpt) (*PubAck, error)
	PublishMsg(ctx context.Context, msg *nats.Msg, opts ...PublishOpt) (*PubAck, error)
	PublishAsync(subject string, payload []byte, opts ...PublishOpt) (PubAckFuture, error)
	PublishMsgAsync(msg *nats.Msg, opts ...PublishOpt) (PubAckFuture, error)
	PublishAsyncPending() int
	PublishAsyncComplete() <-chan struct{}
	CleanupPublisher()
}

// MsgMetadata is a message's delivery metadata.
type MsgMetadata struct {
	NumDelivered uint64
	Stream       string
	Consumer     string
}

// Msg is a message delivered by a consumer.
type Msg interface {
	Metadata() (*MsgMetadata, error)
	Data() []byte
	Headers() nats.Header
	Subject() string
	Reply() string
	Ack() error
	DoubleAck(context.Context) error
	Nak() error
	NakWithDelay(delay time.Duration) error
	InProgress() error
	Term() error
	TermWithReason(reason string) error
}

// MessageHandler handles the messages of Consume.
type MessageHandler func(msg Msg)

// ConsumeContext controls a Consume.
type ConsumeContext interface {
	Stop()
	Drain()
	Closed() <-chan struct{}
}

// MessageBatch is the result of a Fetch.
type MessageBatch interface {
	Messages() <-chan Msg
	Error() error
}

type pullRequest struct{}

// FetchOpt configures a Fetch.
type FetchOpt func(*pullRequest) error

type consumeOpts struct{}

// PullConsumeOpt configures a Consume.
type PullConsumeOpt interface {
	configureConsume(*consumeOpts) error
}

// PullMessagesOpt configures Messages.
type PullMessagesOpt interface {
	configureMessages(*consumeOpts) error
}

type nextOpts struct{}

// NextOpt configures a MessagesContext's Next.
type NextOpt interface {
	configureNext(*nextOpts)
}

// MessagesContext iterates over a consumer's messages.
type MessagesContext interface {
	Next(opts ...NextOpt) (Msg, error)
	Stop()
	Drain()
}

// ConsumerInfo describes a consumer.
type ConsumerInfo struct {
	Stream string
	Name   string
}

// Consumer is a pull consumer.
type Consumer interface {
	Fetch(batch int, opts ...FetchOpt) (MessageBatch, error)
	FetchBytes(maxBytes int, opts ...FetchOpt) (MessageBatch, error)
	FetchNoWait(batch int) (MessageBatch, error)
	Consume(handler MessageHandler, opts ...PullConsumeOpt) (ConsumeContext, error)
	Messages(opts ...PullMessagesOpt) (MessagesContext, error)
	Next(opts ...FetchOpt) (Msg, error)
	Info(context.Context) (*ConsumerInfo, error)
	CachedInfo() *ConsumerInfo
}

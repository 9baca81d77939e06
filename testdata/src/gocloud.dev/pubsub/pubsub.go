// Package pubsub is a stub of gocloud.dev/pubsub v0.49.0 for the analyzer
// tests. It declares only what idemlint's models and test packages use, with
// the real signatures; apicheck keeps it in step with the real API.
package pubsub

import "context"

// Message is a message sent or received.
type Message struct {
	LoggableID string
	Body       []byte
	Metadata   map[string]string
}

// Ack acknowledges the message: it is not sent again.
func (m *Message) Ack() {}

// Nack asks for the message to be redelivered.
func (m *Message) Nack() {}

// Subscription receives messages.
type Subscription struct{}

// Receive returns the next message.
func (s *Subscription) Receive(ctx context.Context) (_ *Message, err error) { return nil, nil }

// Shutdown flushes pending acks and stops the subscription.
func (s *Subscription) Shutdown(ctx context.Context) (err error) { return nil }

// Topic publishes messages.
type Topic struct{}

// Send publishes a message.
func (t *Topic) Send(ctx context.Context, m *Message) (err error) { return nil }

// OpenSubscription opens the subscription a URL names.
func OpenSubscription(ctx context.Context, urlstr string) (*Subscription, error) { return nil, nil }

// OpenTopic opens the topic a URL names.
func OpenTopic(ctx context.Context, urlstr string) (*Topic, error) { return nil, nil }

// Package pubsub is a stub of cloud.google.com/go/pubsub/v2 v2.9.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package pubsub

import (
	"context"

	ipubsub "cloud.google.com/go/internal/pubsub"
)

// Message is a Pub/Sub message.
type Message = ipubsub.Message

// PublishResult is the result of a publish.
type PublishResult = ipubsub.PublishResult

// Client is a Pub/Sub client.
type Client struct{}

// Publisher returns a publisher for a topic.
func (c *Client) Publisher(topicNameOrID string) *Publisher { panic("stub") }

// Subscriber returns a subscriber for a subscription.
func (c *Client) Subscriber(nameOrID string) *Subscriber { panic("stub") }

// Publisher publishes to a topic.
type Publisher struct{}

// Publish publishes msg.
func (t *Publisher) Publish(ctx context.Context, msg *Message) *PublishResult { panic("stub") }

// Subscriber receives from a subscription.
type Subscriber struct{}

// Receive calls f with each message until ctx is done.
func (s *Subscriber) Receive(ctx context.Context, f func(context.Context, *Message)) error {
	panic("stub")
}

// Package pubsub is a stub of cloud.google.com/go/pubsub v1.51.0 for the
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

// Topic returns a reference to a topic.
func (c *Client) Topic(id string) *Topic { panic("stub") }

// Subscription returns a reference to a subscription.
func (c *Client) Subscription(id string) *Subscription { panic("stub") }

// Topic is a reference to a Pub/Sub topic.
type Topic struct{}

// Publish publishes msg.
func (t *Topic) Publish(ctx context.Context, msg *Message) *PublishResult { panic("stub") }

// Subscription is a reference to a Pub/Sub subscription.
type Subscription struct{}

// Receive calls f with each message until ctx is done.
func (s *Subscription) Receive(ctx context.Context, f func(context.Context, *Message)) error {
	panic("stub")
}

// Package pubsub is a stub of cloud.google.com/go/internal/pubsub
// (cloud.google.com/go v0.123.0) for the analyzer tests: the message and
// publish result types that cloud.google.com/go/pubsub/v2 aliases. apicheck
// loads the real internal package by path and compares it like any stub.
package pubsub

import "context"

// Message is a Pub/Sub message.
type Message struct {
	ID          string
	Data        []byte
	Attributes  map[string]string
	OrderingKey string
}

// Ack acknowledges the message.
func (m *Message) Ack() {}

// Nack asks for the message to be delivered again.
func (m *Message) Nack() {}

// PublishResult is the result of a publish.
type PublishResult struct{}

// Get waits for the publish and returns the server's message id.
func (r *PublishResult) Get(ctx context.Context) (serverID string, err error) { panic("stub") }

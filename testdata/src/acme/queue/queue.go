// Package queue is a company's own job runtime, unknown to the built-in models.
package queue

import "context"

type Message struct {
	ID   string
	Body []byte
}

type Consumer struct{}

func (c *Consumer) Subscribe(topic string, h func(ctx context.Context, m *Message) error) {}

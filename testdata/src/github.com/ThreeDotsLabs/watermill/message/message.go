// Package message is a stub of github.com/ThreeDotsLabs/watermill/message
// v1.5.1 for the analyzer tests: messages, the router and its handler
// function types.
package message

import (
	"context"
	"time"

	"github.com/ThreeDotsLabs/watermill"
)

// Payload is a message's body.
type Payload []byte

// Metadata holds a message's headers.
type Metadata map[string]string

// Message is what a handler receives. UUID is set by the publisher, which is
// why it can serve as a deduplication key.
type Message struct {
	UUID     string
	Metadata Metadata
	Payload  Payload
}

// NewMessage returns a message with the given UUID and payload.
func NewMessage(uuid string, payload Payload) *Message { panic("stub") }

// Ack acknowledges the message.
func (m *Message) Ack() bool { panic("stub") }

// Nack negatively acknowledges the message, so it is redelivered.
func (m *Message) Nack() bool { panic("stub") }

// Context returns the message's context.
func (m *Message) Context() context.Context { panic("stub") }

// SetContext sets the message's context.
func (m *Message) SetContext(ctx context.Context) {}

// Copy returns a copy of the message without its context.
func (m *Message) Copy() *Message { panic("stub") }

// Publisher publishes messages to a topic.
type Publisher interface {
	Publish(topic string, messages ...*Message) error
	Close() error
}

// Subscriber receives messages from a topic.
type Subscriber interface {
	Subscribe(ctx context.Context, topic string) (<-chan *Message, error)
	Close() error
}

// HandlerFunc handles a message and returns messages to publish.
type HandlerFunc func(msg *Message) ([]*Message, error)

// NoPublishHandlerFunc handles a message and publishes nothing.
type NoPublishHandlerFunc func(msg *Message) error

// HandlerMiddleware wraps a HandlerFunc.
type HandlerMiddleware func(h HandlerFunc) HandlerFunc

// RouterConfig configures a Router.
type RouterConfig struct {
	CloseTimeout time.Duration
}

// Router routes messages from subscribers to handlers.
type Router struct{}

// NewRouter returns a router.
func NewRouter(config RouterConfig, logger watermill.LoggerAdapter) (*Router, error) {
	return &Router{}, nil
}

// AddMiddleware adds middleware to every handler.
func (r *Router) AddMiddleware(m ...HandlerMiddleware) {}

// AddHandler adds a handler whose returned messages go to publishTopic.
func (r *Router) AddHandler(
	handlerName string,
	subscribeTopic string,
	subscriber Subscriber,
	publishTopic string,
	publisher Publisher,
	handlerFunc HandlerFunc,
) *Handler {
	return &Handler{}
}

// AddConsumerHandler adds a handler that publishes nothing.
func (r *Router) AddConsumerHandler(
	handlerName string,
	subscribeTopic string,
	subscriber Subscriber,
	handlerFunc NoPublishHandlerFunc,
) *Handler {
	return &Handler{}
}

// AddNoPublisherHandler is the older name of AddConsumerHandler.
func (r *Router) AddNoPublisherHandler(
	handlerName string,
	subscribeTopic string,
	subscriber Subscriber,
	handlerFunc NoPublishHandlerFunc,
) *Handler {
	return &Handler{}
}

// Run runs the router until ctx is done or it is closed.
func (r *Router) Run(ctx context.Context) (err error) { panic("stub") }

// Close stops the router.
func (r *Router) Close() error { return nil }

// Handler is a handler added to a Router.
type Handler struct{}

// AddMiddleware adds middleware to this handler only.
func (h *Handler) AddMiddleware(m ...HandlerMiddleware) {}

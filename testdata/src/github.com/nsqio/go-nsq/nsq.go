// Package nsq is a stub of github.com/nsqio/go-nsq v1.1.0 for the analyzer tests.
// It declares only what idemlint's models and test packages use, with the real
// signatures; apicheck keeps it in step with the real API.
package nsq

import "time"

// MsgIDLength is the length of a message id.
const MsgIDLength = 16

// MessageID is a message's id.
type MessageID [MsgIDLength]byte

// Message is a message delivered to a consumer.
type Message struct {
	ID       MessageID
	Body     []byte
	Attempts uint16
}

// Finish acknowledges the message.
func (m *Message) Finish() { panic("stub") }

// Handler handles a message; a nil error finishes it, an error requeues it.
type Handler interface {
	HandleMessage(message *Message) error
}

// HandlerFunc is a function that is a Handler.
type HandlerFunc func(message *Message) error

// HandleMessage calls h.
func (h HandlerFunc) HandleMessage(m *Message) error { return h(m) }

// Config configures consumers and producers.
type Config struct{}

// NewConfig returns the default configuration.
func NewConfig() *Config { panic("stub") }

// Consumer consumes a channel of a topic.
type Consumer struct{}

// NewConsumer returns a consumer of topic's channel.
func NewConsumer(topic string, channel string, config *Config) (*Consumer, error) { panic("stub") }

// AddHandler sets the consumer's handler.
func (r *Consumer) AddHandler(handler Handler) { panic("stub") }

// AddConcurrentHandlers sets the handler, run by concurrency goroutines.
func (r *Consumer) AddConcurrentHandlers(handler Handler, concurrency int) { panic("stub") }

// ConnectToNSQLookupd starts consuming through a lookupd.
func (r *Consumer) ConnectToNSQLookupd(addr string) error { panic("stub") }

// ProducerTransaction is the result of an asynchronous publish.
type ProducerTransaction struct {
	Error error
	Args  []interface{}
}

// Producer publishes to an nsqd.
type Producer struct{}

// NewProducer returns a producer for the nsqd at addr.
func NewProducer(addr string, config *Config) (*Producer, error) { panic("stub") }

// Publish publishes body to topic.
func (w *Producer) Publish(topic string, body []byte) error { panic("stub") }

// MultiPublish publishes bodies to topic.
func (w *Producer) MultiPublish(topic string, body [][]byte) error { panic("stub") }

// DeferredPublish publishes body to topic after delay.
func (w *Producer) DeferredPublish(topic string, delay time.Duration, body []byte) error {
	panic("stub")
}

// PublishAsync publishes body to topic without waiting.
func (w *Producer) PublishAsync(topic string, body []byte, doneChan chan *ProducerTransaction,
	args ...interface{}) error {
	panic("stub")
}

// MultiPublishAsync publishes bodies to topic without waiting.
func (w *Producer) MultiPublishAsync(topic string, body [][]byte, doneChan chan *ProducerTransaction,
	args ...interface{}) error {
	panic("stub")
}

// DeferredPublishAsync publishes body to topic after delay without waiting.
func (w *Producer) DeferredPublishAsync(topic string, delay time.Duration, body []byte,
	doneChan chan *ProducerTransaction, args ...interface{}) error {
	panic("stub")
}

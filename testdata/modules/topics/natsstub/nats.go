// Package nats is a stub of github.com/nats-io/nats.go v1.55.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package nats

// Header is a message's headers.
type Header map[string][]string

// Msg is a NATS message.
type Msg struct {
	Subject string
	Reply   string
	Header  Header
	Data    []byte
	Sub     *Subscription
}

// Respond answers a request on the message's reply subject.
func (m *Msg) Respond(data []byte) error { panic("stub") }

// Get returns the first value of a header.
func (h Header) Get(key string) string { panic("stub") }

// MsgHandler handles a message of a subscription.
type MsgHandler func(msg *Msg)

// Subscription is an interest in a subject.
type Subscription struct {
	Subject string
	Queue   string
}

// Conn is a connection to a NATS server.
type Conn struct{}

// Publish publishes data on a subject.
func (nc *Conn) Publish(subj string, data []byte) error { panic("stub") }

// PublishMsg publishes a message.
func (nc *Conn) PublishMsg(m *Msg) error { panic("stub") }

// Subscribe subscribes cb to a subject.
func (nc *Conn) Subscribe(subj string, cb MsgHandler) (*Subscription, error) { panic("stub") }

// QueueSubscribe subscribes cb to a subject in a queue group.
func (nc *Conn) QueueSubscribe(subj, queue string, cb MsgHandler) (*Subscription, error) {
	panic("stub")
}

type pubOpts struct{}

// PubOpt configures options for publishing JetStream messages.
type PubOpt interface {
	configurePublish(opts *pubOpts) error
}

// MsgId sets the message ID used for deduplication.
func MsgId(id string) PubOpt { panic("stub") }

type subOpts struct{}

// SubOpt configures options for subscribing to JetStream consumers.
type SubOpt interface {
	configureSubscribe(opts *subOpts) error
}

// PubAck is an ack received after successfully publishing a message.
type PubAck struct {
	Stream    string `json:"stream"`
	Sequence  uint64 `json:"seq"`
	Duplicate bool   `json:"duplicate,omitempty"`
	Domain    string `json:"domain,omitempty"`
}

// JetStream is the legacy JetStream API (publishing and subscribing).
type JetStream interface {
	Publish(subj string, data []byte, opts ...PubOpt) (*PubAck, error)
	PublishMsg(m *Msg, opts ...PubOpt) (*PubAck, error)
	Subscribe(subj string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
	QueueSubscribe(subj, queue string, cb MsgHandler, opts ...SubOpt) (*Subscription, error)
	PullSubscribe(subj, durable string, opts ...SubOpt) (*Subscription, error)
}

type pullOpts struct{}

// PullOpt are the options that can be passed when pulling a batch of messages.
type PullOpt interface {
	configurePull(opts *pullOpts) error
}

// Fetch pulls a batch of messages from a pull subscription.
func (sub *Subscription) Fetch(batch int, opts ...PullOpt) ([]*Msg, error) { panic("stub") }

// MessageBatch provides methods to retrieve messages consumed using FetchBatch.
type MessageBatch interface {
	Messages() <-chan *Msg
	Error() error
	Done() <-chan struct{}
}

// FetchBatch pulls a batch of messages, delivered on a channel.
func (sub *Subscription) FetchBatch(batch int, opts ...PullOpt) (MessageBatch, error) {
	panic("stub")
}

type ackOpts struct{}

// AckOpt are the options that can be passed when acknowledging a message.
type AckOpt interface {
	configureAck(opts *ackOpts) error
}

// Ack acknowledges a JetStream message.
func (m *Msg) Ack(opts ...AckOpt) error { panic("stub") }

// AckSync acknowledges a JetStream message and waits for the server's confirmation.
func (m *Msg) AckSync(opts ...AckOpt) error { panic("stub") }

// Nak asks for the message to be redelivered.
func (m *Msg) Nak(opts ...AckOpt) error { panic("stub") }

// Term stops the message's redelivery.
func (m *Msg) Term(opts ...AckOpt) error { panic("stub") }

// JetStreamContext allows JetStream messaging and stream management.
type JetStreamContext interface {
	JetStream
}

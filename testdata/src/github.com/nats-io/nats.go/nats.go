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

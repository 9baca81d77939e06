// Package gomail is a stub of gopkg.in/gomail.v2 v2.0.0-20160411212932-81ebce5c23df
// for the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package gomail

import "io"

// Message is an email.
type Message struct{}

// MessageSetting configures a Message.
type MessageSetting func(m *Message)

// NewMessage creates a message.
func NewMessage(settings ...MessageSetting) *Message { return &Message{} }

// SetHeader sets a header field.
func (m *Message) SetHeader(field string, value ...string) {}

// Dialer is a dialer to an SMTP server.
type Dialer struct {
	Host     string
	Port     int
	Username string
	Password string
}

// NewDialer returns a new SMTP Dialer.
func NewDialer(host string, port int, username, password string) *Dialer {
	return &Dialer{Host: host, Port: port, Username: username, Password: password}
}

// Dial dials and authenticates to an SMTP server.
func (d *Dialer) Dial() (SendCloser, error) { panic("stub") }

// DialAndSend opens a connection to the SMTP server, sends the emails and
// closes the connection.
func (d *Dialer) DialAndSend(m ...*Message) error { panic("stub") }

// Sender sends an email to the given addresses.
type Sender interface {
	Send(from string, to []string, msg io.WriterTo) error
}

// SendCloser groups the Send and Close methods.
type SendCloser interface {
	Sender
	Close() error
}

// Send sends emails using the given Sender.
func Send(s Sender, msg ...*Message) error { panic("stub") }

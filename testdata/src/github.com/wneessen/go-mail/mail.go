// Package mail is a stub of github.com/wneessen/go-mail v0.8.1 for the
// analyzer tests: building a message and sending it through a Client.
package mail

import "context"

// ContentType is a MIME content type.
type ContentType string

// TypeTextPlain is text/plain.
const TypeTextPlain ContentType = "text/plain"

// SMTPAuthType is an SMTP authentication mechanism.
type SMTPAuthType string

// SMTPAuthPlain is the PLAIN mechanism.
const SMTPAuthPlain SMTPAuthType = "PLAIN"

// Option configures NewClient.
type Option func(*Client) error

// WithPort sets the server port.
func WithPort(port int) Option { panic("stub") }

// WithSMTPAuth sets the authentication mechanism.
func WithSMTPAuth(authtype SMTPAuthType) Option { panic("stub") }

// WithUsername sets the user name.
func WithUsername(username string) Option { panic("stub") }

// WithPassword sets the password.
func WithPassword(password string) Option { panic("stub") }

// Client sends messages over SMTP.
type Client struct{}

// NewClient returns a client for host.
func NewClient(host string, opts ...Option) (*Client, error) { panic("stub") }

// DialWithContext connects to the server.
func (c *Client) DialWithContext(ctxDial context.Context) error { panic("stub") }

// Send sends messages over the open connection.
func (c *Client) Send(messages ...*Msg) (returnErr error) { panic("stub") }

// Close closes the connection.
func (c *Client) Close() error { return nil }

// DialAndSend connects, sends messages and closes.
func (c *Client) DialAndSend(messages ...*Msg) error { panic("stub") }

// DialAndSendWithContext connects, sends messages and closes, honouring ctx.
func (c *Client) DialAndSendWithContext(ctx context.Context, messages ...*Msg) (err error) {
	panic("stub")
}

// Part is one MIME part of a message.
type Part struct{}

// PartOption configures a Part.
type PartOption func(*Part)

// MsgOption configures NewMsg.
type MsgOption func(*Msg)

// Msg is an email message.
type Msg struct{}

// NewMsg returns an empty message.
func NewMsg(opts ...MsgOption) *Msg { return &Msg{} }

// From sets the sender.
func (m *Msg) From(from string) error { panic("stub") }

// To sets the recipients.
func (m *Msg) To(rcpts ...string) error { panic("stub") }

// Subject sets the subject.
func (m *Msg) Subject(subj string) {}

// SetMessageID sets a random Message-ID.
func (m *Msg) SetMessageID() {}

// SetMessageIDWithValue sets the Message-ID to messageID; a stable one lets
// the receiving side drop duplicates.
func (m *Msg) SetMessageIDWithValue(messageID string) {}

// SetBodyString sets the body.
func (m *Msg) SetBodyString(contentType ContentType, content string, opts ...PartOption) {}

// Package mailgun is a stub of github.com/mailgun/mailgun-go/v4 v4.23.0 for
// the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package mailgun

import "context"

// MailgunImpl is the Mailgun client.
type MailgunImpl struct{ domain string }

// NewMailgun creates a client for the domain.
func NewMailgun(domain, apiKey string) *MailgunImpl { return &MailgunImpl{domain: domain} }

// Message is a message to send.
type Message struct{ to []string }

// NewMessage creates a message.
func NewMessage(from, subject, text string, to ...string) *Message { return &Message{to: to} }

// Send sends the message.
func (mg *MailgunImpl) Send(ctx context.Context, m *Message) (mes, id string, err error) {
	panic("stub")
}

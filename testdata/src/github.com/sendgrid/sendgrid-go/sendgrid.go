// Package sendgrid is a stub of github.com/sendgrid/sendgrid-go
// v3.16.1+incompatible for the analyzer tests. It declares only what
// idemlint's models and test packages use, with the real signatures; apicheck
// keeps it in step with the real API.
package sendgrid

import (
	"context"

	"github.com/sendgrid/rest"
	"github.com/sendgrid/sendgrid-go/helpers/mail"
)

// Client is the SendGrid client.
type Client struct{}

// NewSendClient constructs a client given an API key.
func NewSendClient(key string) *Client { return &Client{} }

// Send sends an email through SendGrid.
func (cl *Client) Send(email *mail.SGMailV3) (*rest.Response, error) { panic("stub") }

// SendWithContext sends an email through SendGrid.
func (cl *Client) SendWithContext(ctx context.Context, email *mail.SGMailV3) (*rest.Response, error) {
	panic("stub")
}

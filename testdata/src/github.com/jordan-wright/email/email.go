// Package email is a stub of github.com/jordan-wright/email
// v4.0.1-0.20210109023952-943e75fe5223+incompatible for the analyzer tests. It
// declares only what idemlint's models and test packages use, with the real
// signatures; apicheck keeps it in step with the real API.
package email

import (
	"crypto/tls"
	"net/smtp"
)

// Email is an email message.
type Email struct {
	From    string
	To      []string
	Subject string
	Text    []byte
}

// NewEmail creates an Email.
func NewEmail() *Email { return &Email{} }

// Send sends the email over SMTP.
func (e *Email) Send(addr string, a smtp.Auth) error { panic("stub") }

// SendWithTLS sends the email over a TLS connection.
func (e *Email) SendWithTLS(addr string, a smtp.Auth, t *tls.Config) error { panic("stub") }

// SendWithStartTLS sends the email over SMTP with STARTTLS.
func (e *Email) SendWithStartTLS(addr string, a smtp.Auth, t *tls.Config) error { panic("stub") }

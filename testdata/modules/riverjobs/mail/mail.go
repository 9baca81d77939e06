// Package mail is the service's SMTP Mailer.
package mail

import (
	"context"
	"net/smtp"
)

// SMTP sends each message through the relay.
type SMTP struct{ Addr string }

func (s SMTP) Send(to, body string) error {
	return smtp.SendMail(s.Addr, nil, "noreply@example.com", []string{to}, []byte(body))
}

// Closed mails the owner of a closed record.
func Closed(ctx context.Context, id string) error {
	return smtp.SendMail("relay:25", nil, "noreply@example.com", []string{"owner@example.com"}, []byte("closed "+id))
}

// Digest mails a digest of a document.
type Digest struct{ To string }

func (d Digest) DocumentReady(ctx context.Context, id string) error {
	return smtp.SendMail("relay:25", nil, "noreply@example.com", []string{d.To}, []byte("ready "+id))
}

// Package mailer sends mail; it implements pg.Notifier without importing pg.
package mailer

import (
	"context"
	"net/smtp"
)

// SMTP sends an order confirmation.
type SMTP struct{ Addr string }

// Notify sends the mail.
func (m SMTP) Notify(ctx context.Context, id string) error {
	return smtp.SendMail(m.Addr, nil, "shop@example.com", []string{"customer@example.com"}, []byte("order "+id))
}

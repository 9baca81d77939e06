// Package impl implements a notifier interface with an email side effect. // want package:"has effects"
package impl

import "net/smtp"

type SMTPNotifier struct{}

func (SMTPNotifier) Notify(to string) error { // want Notify:`effects email.send`
	return smtp.SendMail("localhost:25", nil, "a@example.com", []string{to}, nil)
}

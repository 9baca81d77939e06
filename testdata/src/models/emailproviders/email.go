// Package emailproviders exercises the gomail, jordan-wright/email, SendGrid and Mailgun // want package:"has effects"
// models: each send from an asynq handler is a new email on every retry.
package emailproviders

import (
	"context"
	"database/sql"

	"github.com/hibiken/asynq"
	"github.com/jordan-wright/email"
	"github.com/mailgun/mailgun-go/v4"
	"github.com/sendgrid/sendgrid-go"
	"github.com/sendgrid/sendgrid-go/helpers/mail"
	"gopkg.in/gomail.v2"
)

var db *sql.DB

func Gomail(ctx context.Context, t *asynq.Task) error { // want Gomail:`effects email.send:unprotected\(\(\*gomail.Dialer\).DialAndSend\)`
	m := gomail.NewMessage()
	m.SetHeader("To", "a@example.com")
	return gomail.NewDialer("localhost", 25, "", "").DialAndSend(m) // want `handler Gomail: email sent with no deduplication \(Gomail -> \(\*gomail.Dialer\).DialAndSend\); missing: key, enforcement`
}

func GomailSender(ctx context.Context, t *asynq.Task) error { // want GomailSender:`effects email.send:unprotected\(gomail.Send\)`
	s, err := gomail.NewDialer("localhost", 25, "", "").Dial()
	if err != nil {
		return err
	}
	defer s.Close()
	return gomail.Send(s, gomail.NewMessage()) // want `handler GomailSender: email sent with no deduplication \(GomailSender -> gomail.Send\)`
}

func JordanWright(ctx context.Context, t *asynq.Task) error { // want JordanWright:`effects email.send:unprotected\(\(\*email.Email\).Send\)`
	e := email.NewEmail()
	e.To = []string{"a@example.com"}
	return e.Send("localhost:25", nil) // want `handler JordanWright: email sent with no deduplication \(JordanWright -> \(\*email.Email\).Send\)`
}

func SendGrid(ctx context.Context, t *asynq.Task) error { // want SendGrid:`effects email.send:unprotected\(\(\*sendgrid.Client\).SendWithContext\)`
	m := mail.NewSingleEmail(mail.NewEmail("", "shop@example.com"), "receipt", mail.NewEmail("", "a@example.com"), "thanks", "")
	_, err := sendgrid.NewSendClient("key").SendWithContext(ctx, m) // want `handler SendGrid: email sent with no deduplication \(SendGrid -> \(\*sendgrid.Client\).SendWithContext\)`
	return err
}

func Mailgun(ctx context.Context, t *asynq.Task) error { // want Mailgun:`effects email.send:unprotected\(\(\*mailgun.MailgunImpl\).Send\)`
	mg := mailgun.NewMailgun("example.com", "key")
	_, _, err := mg.Send(ctx, mailgun.NewMessage("shop@example.com", "receipt", "thanks", "a@example.com")) // want `handler Mailgun: email sent with no deduplication \(Mailgun -> \(\*mailgun.MailgunImpl\).Send\)`
	return err
}

// MailgunRecorded sends nothing itself: it records the email for a sender that deduplicates.
func MailgunRecorded(ctx context.Context, t *asynq.Task) error { // want MailgunRecorded:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO outbox (task) VALUES ($1) ON CONFLICT (task) DO NOTHING", t.Type())
	return err
}

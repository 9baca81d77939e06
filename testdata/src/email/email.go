// Package email exercises the email.send sinks: no mail API offers a deduplication key. // want package:"has effects"
package email

import (
	"context"
	"net/smtp"

	"github.com/hibiken/asynq"
	mail "github.com/wneessen/go-mail"
)

func SMTP(ctx context.Context, t *asynq.Task) error { // want SMTP:`effects email.send:unprotected\(smtp.SendMail\)`
	return smtp.SendMail("localhost:25", nil, "shop@example.com", []string{"a@example.com"}, t.Payload()) // want `handler SMTP: email sent with no deduplication \(SMTP -> smtp.SendMail\); missing: key, enforcement`
}

func GoMail(ctx context.Context, t *asynq.Task) error { // want GoMail:`effects email.send:unprotected\(\(\*mail.Client\).DialAndSendWithContext\)`
	m := mail.NewMsg()
	c, err := mail.NewClient("localhost")
	if err != nil {
		return err
	}
	return c.DialAndSendWithContext(ctx, m) // want `handler GoMail: email sent with no deduplication \(GoMail -> \(\*mail.Client\).DialAndSendWithContext\)`
}

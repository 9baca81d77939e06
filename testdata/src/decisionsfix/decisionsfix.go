// Package decisionsfix: the decisions skeleton fix. // want package:"has effects"
package decisionsfix

import (
	"context"
	"net/smtp"

	"github.com/hibiken/asynq"
)

// SendReceipt mails the receipt of an order.
func SendReceipt(ctx context.Context, t *asynq.Task) error { // want SendReceipt:`effects email.send:unprotected\(smtp.SendMail\)`
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil) // want `handler SendReceipt: email sent`
}

func NoDoc(ctx context.Context, t *asynq.Task) error { // want NoDoc:`effects email.send:unprotected\(smtp.SendMail\)`
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil) // want `handler NoDoc: email sent`
}

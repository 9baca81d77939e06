// Package decisionsfix: the decisions skeleton fix.
package decisionsfix

import (
	"context"
	"net/smtp"

	"github.com/hibiken/asynq"
)

// SendReceipt mails the receipt of an order.
func SendReceipt(ctx context.Context, t *asynq.Task) error {
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil) // want `handler SendReceipt: email sent`
}

func NoDoc(ctx context.Context, t *asynq.Task) error {
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil) // want `handler NoDoc: email sent`
}

// Package cycles: recursion and mutual recursion reach a fixpoint.
package cycles

import (
	"context"
	"net/smtp"

	"github.com/hibiken/asynq"
)

func even(n int) error { // want even:`effects email.send:unprotected\(smtp.SendMail\)`
	if n == 0 {
		return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil)
	}
	return odd(n - 1)
}

func odd(n int) error { // want odd:`effects email.send:unprotected\(smtp.SendMail\)`
	if n == 0 {
		return nil
	}
	return even(n - 1)
}

func self(n int) error { // want self:`effects email.send`
	if n > 0 {
		return self(n - 1)
	}
	return odd(1)
}

func Handle(ctx context.Context, t *asynq.Task) error { // want Handle:`effects email.send`
	return self(3) // want `handler Handle: email sent with no deduplication \(Handle -> cycles.self -> cycles.odd -> cycles.even -> smtp.SendMail\)`
}

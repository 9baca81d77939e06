// Package cycles: recursion and mutual recursion reach a fixpoint. The functions are // want package:"has effects"
// exported so that their facts (which unexported functions do not get) show it.
package cycles

import (
	"context"
	"net/smtp"

	"github.com/hibiken/asynq"
)

func Even(n int) error { // want Even:`effects email.send:unprotected\(smtp.SendMail\)`
	if n == 0 {
		return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil)
	}
	return Odd(n - 1)
}

func Odd(n int) error { // want Odd:`effects email.send:unprotected\(smtp.SendMail\)`
	if n == 0 {
		return nil
	}
	return Even(n - 1)
}

func Self(n int) error { // want Self:`effects email.send`
	if n > 0 {
		return Self(n - 1)
	}
	return Odd(1)
}

func Handle(ctx context.Context, t *asynq.Task) error { // want Handle:`effects email.send`
	return Self(3) // want `handler Handle: email sent with no deduplication \(Handle -> cycles.Self -> cycles.Odd -> cycles.Even -> smtp.SendMail\)`
}

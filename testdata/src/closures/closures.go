// Package closures: closures, method values and function variables are followed. // want package:"has effects"
package closures

import (
	"context"
	"net/smtp"

	"github.com/hibiken/asynq"
)

type mailer struct{}

func (m *mailer) send() error { return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil) } // want send:`effects email.send:unprotected\(smtp.SendMail\)`

var m = &mailer{}

func retry(f func() error) error { return f() }

func MethodValue(ctx context.Context, t *asynq.Task) error { // want MethodValue:`effects email.send:unprotected\(smtp.SendMail\)`
	return retry(m.send) // want `handler MethodValue: email sent with no deduplication \(MethodValue -> closures.retry -> \(\*closures.mailer\).send -> smtp.SendMail\)`
}

func Closure(ctx context.Context, t *asynq.Task) error { // want Closure:`effects email.send:unprotected\(smtp.SendMail\)`
	return retry(func() error { // want `handler Closure: email sent`
		return m.send()
	})
}

func FuncVar(ctx context.Context, t *asynq.Task) error { // want FuncVar:`effects email.send:unprotected\(smtp.SendMail\)`
	f := m.send // want `handler FuncVar: email sent`
	return f()
}

func Deferred(ctx context.Context, t *asynq.Task) error { // want Deferred:`effects email.send:unprotected\(smtp.SendMail\)`
	defer func() { _ = m.send() }() // want `handler Deferred: email sent`
	return nil
}

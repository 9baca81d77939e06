// Package typeerrors does not type-check: the analyzer still reports what it can see and // want package:"has effects"
// invents nothing where types are missing.
package typeerrors

import (
	"context"
	"net/smtp"

	"github.com/hibiken/asynq"
)

func Good(ctx context.Context, t *asynq.Task) error { // want Good:`effects email.send:unprotected\(smtp.SendMail\)`
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil) // want `handler Good: email sent`
}

func Broken(ctx context.Context, t *asynq.Task) error {
	var c undefinedClient
	return c.Post(undefinedURL) // no finding: nothing is known of c or its method
}

func AlsoBroken(ctx context.Context, t *asynq.Task) error { // want AlsoBroken:`effects email.send:unprotected\(smtp.SendMail\)`
	return smtp.SendMail(undefinedHost, nil, "a@example.com", nil, nil) + 1 // want `handler AlsoBroken: email sent`
}

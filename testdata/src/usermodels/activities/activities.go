// Package activities: handlers known only by their registration, no shape. // want package:"has effects"
package activities

import (
	"context"
	"net/smtp"

	"acme/worker"
)

type Activities struct{}

func (a *Activities) SendInvoice(ctx context.Context, id string) error { // want SendInvoice:`effects email.send:unprotected\(smtp.SendMail\)`
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil) // want `handler \(\*Activities\).SendInvoice: email sent`
}

func (a *Activities) helper() error { return nil }

func SendReport(ctx context.Context) error { // want SendReport:`effects email.send:unprotected\(smtp.SendMail\)`
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil) // want `handler SendReport: email sent`
}

// Standalone is registered by another package only.
func Standalone(ctx context.Context) error { // want Standalone:`effects email.send`
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil)
}

func Register(w *worker.Worker) { // want Register:`effects email.send:unprotected\(smtp.SendMail\)`
	w.RegisterActivity(&Activities{})
	w.RegisterActivity(SendReport)
}

// Package handlernoise: what looks like a handler and is not one. Middleware wraps the // want package:"has effects"
// handlers it is given; a factory stands for the literal it returns (one handler, not two);
// a test's literals are no handlers. Each has a twin that is a handler.
package handlernoise

import (
	"context"
	"net/smtp"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/hibiken/asynq"
)

func send() error {
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil)
}

// Watermill middleware on a router: the literal it returns wraps every handler, it is not
// one (its mail is sent, but its own findings would repeat every handler's).
func Middleware(r *message.Router, sub message.Subscriber) { // want Middleware:`effects email.send:unprotected\(smtp.SendMail\)`
	r.AddMiddleware(func(h message.HandlerFunc) message.HandlerFunc {
		return func(msg *message.Message) ([]*message.Message, error) {
			_ = send()
			return h(msg)
		}
	})
	r.AddMiddleware(logging)
	// The twin: the same literal handed to the router as a handler.
	r.AddHandler("mail", "in", sub, "out", nil, func(msg *message.Message) ([]*message.Message, error) {
		return nil, send() // want `handler func literal in Middleware: email sent`
	})
}

// logging is middleware by its shape, declared: its literal is not a handler either.
func logging(next message.HandlerFunc) message.HandlerFunc {
	return func(msg *message.Message) ([]*message.Message, error) {
		_ = send()
		return next(msg)
	}
}

// asynq middleware converts its literal to the handler type it returns; wrapping a handler
// in it at the registration registers the handler, not the middleware.
func withAudit(h asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		_ = send()
		return h.ProcessTask(ctx, t)
	})
}

func handleWelcome(ctx context.Context, t *asynq.Task) error {
	return send() // want `handler handleWelcome: email sent`
}

// newReceipt is a factory: the literal it returns is the handler, reported once.
func newReceipt(from string) asynq.HandlerFunc {
	return func(ctx context.Context, t *asynq.Task) error {
		return smtp.SendMail("localhost:25", nil, from, nil, nil) // want `handler func literal in newReceipt: email sent`
	}
}

// newInvoice is a factory whose literal has no handler shape of its own (cqrs-style
// function handlers take any type): registered through it, the literal is the handler.
func newInvoice(from string) func(ctx context.Context, t *asynq.Task) error {
	return func(ctx context.Context, t *asynq.Task) error {
		return smtp.SendMail("localhost:25", nil, from, nil, nil) // want `handler func literal in newInvoice: email sent`
	}
}

func Register(mux *asynq.ServeMux) { // want Register:`effects email.send:unprotected\(smtp.SendMail\)`
	mux.Use(withAudit)
	mux.Handle("welcome", withAudit(asynq.HandlerFunc(handleWelcome)))
	mux.Handle("receipt", newReceipt("a@example.com"))
	mux.HandleFunc("invoice", newInvoice("b@example.com"))
}

// Notifier is what HandleNotify tells; the service's implementation does nothing here, the
// test's double (noise_test.go) mails. A test double never runs in the service: the
// handler's call does not reach it, in the test variant of the package either.
type Notifier interface {
	Notify(ctx context.Context) error
}

type quiet struct{}

func (quiet) Notify(ctx context.Context) error { return nil }

var _ Notifier = quiet{}

func HandleNotify(ctx context.Context, t *asynq.Task) error {
	var n Notifier = quiet{}
	return n.Notify(ctx)
}

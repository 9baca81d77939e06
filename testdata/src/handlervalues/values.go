// Package handlervalues: handlers handed over as values of an interface type or through a // want package:"has effects"
// struct field. Each implementation in view is a handler; a type that implements nothing
// handed over is not.
package handlervalues

import (
	"context"
	"net/smtp"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/hibiken/asynq"

	"handlervalues/mail"
)

func send() error {
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil)
}

// Listener is the project's own handler interface; its implementations' Handle methods
// are what the router runs.
type Listener interface {
	Handle(msg *message.Message) error
}

type orders struct{}

func (orders) Handle(msg *message.Message) error { // want Handle:`effects email.send:unprotected\(smtp.SendMail\)`
	return send() // want `handler \(orders\).Handle: email sent`
}

// audit has a Handle method of another signature: it is no Listener.
type audit struct{}

func (audit) Handle(msg string) error { return send() } // want Handle:`effects email.send:unprotected\(smtp.SendMail\)`

func Route(r *message.Router, sub message.Subscriber, l Listener) {
	// orders is a Listener of this package, a handler of its own; mail.Welcome, imported,
	// is one too (it has the method), reported here.
	r.AddConsumerHandler("orders", "in", sub, l.Handle) // want `handler \(Listener\).Handle: email sent with no deduplication \(\(Listener\).Handle -> \(mail.Welcome\).Handle -> smtp.SendMail\); handler \(mail.Sender\).Handle reaches it too`
}

// Invoker is a lambda.Handler: Start given a value of that interface runs its Invoke.
type Invoker struct{}

func (Invoker) Invoke(ctx context.Context, payload []byte) ([]byte, error) { // want Invoke:`effects email.send:unprotected\(smtp.SendMail\)`
	return nil, send() // want `handler \(Invoker\).Invoke: email sent`
}

type app struct {
	handler lambda.Handler
	mails   asynq.Handler
}

func Main(a *app) {
	lambda.Start(a.handler)
}

// mailer is an asynq.Handler held in a field (a handler by its method's shape as well):
// the registration through the field is its registration.
type mailer struct{}

func (*mailer) ProcessTask(ctx context.Context, t *asynq.Task) error { // want ProcessTask:`effects email.send:unprotected\(smtp.SendMail\)`
	return send() // want `handler \(\*mailer\).ProcessTask: email sent`
}

func Serve(mux *asynq.ServeMux, a *app) {
	mux.Handle("mail", a.mails)
}

// RouteMail registers a Sender declared, with its implementations, in another package: the
// router runs what they do, reported at the registration with the implementation in the
// chain.
func RouteMail(r *message.Router, sub message.Subscriber, s mail.Sender) {
	r.AddConsumerHandler("mail", "in", sub, s.Handle) // want `handler \(mail.Sender\).Handle: email sent with no deduplication \(\(mail.Sender\).Handle -> \(mail.Welcome\).Handle -> smtp.SendMail\)`
}

// Quiet is the twin: a Listener of this package with no implementation anywhere in view
// that does anything.
type Quiet interface {
	Handle(msg *message.Message) error
	Quiet()
}

func RouteQuiet(r *message.Router, sub message.Subscriber, q Quiet) {
	r.AddConsumerHandler("quiet", "in", sub, q.Handle)
}

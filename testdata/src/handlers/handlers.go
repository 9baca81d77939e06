// Package handlers exercises every handler shape: asynq, River and Watermill, functions, // want package:"has effects"
// methods, literals, method values and the //idemlint:handler directive.
package handlers

import (
	"context"
	"net/smtp"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/hibiken/asynq"
	"github.com/riverqueue/river"
)

func send() error {
	return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil)
}

// asynq.Handler implemented by a type.
type EmailHandler struct{}

func (h *EmailHandler) ProcessTask(ctx context.Context, t *asynq.Task) error { // want ProcessTask:`effects email.send:unprotected\(smtp.SendMail\)`
	return send() // want `handler \(\*EmailHandler\).ProcessTask: email sent with no deduplication \(\(\*EmailHandler\).ProcessTask -> handlers.send -> smtp.SendMail\)`
}

// An unexported function registered with HandleFunc, and a helper with the same shape that
// is only called: the helper is not a handler.
func handleWelcome(ctx context.Context, t *asynq.Task) error {
	return welcomeHelper(ctx, t) // want `handler handleWelcome: email sent`
}

func welcomeHelper(ctx context.Context, t *asynq.Task) error {
	return send()
}

type service struct{}

// A method value registered as a handler: its shape is a function's, it is a method.
func (s *service) handleReceipt(ctx context.Context, t *asynq.Task) error { // want handleReceipt:`effects email.send:unprotected\(smtp.SendMail\)`
	return send() // want `handler \(\*service\).handleReceipt: email sent`
}

func Register(mux *asynq.ServeMux, s *service, r *message.Router, workers *river.Workers) { // want Register:`effects email.send:unprotected\(smtp.SendMail\)`
	mux.HandleFunc("welcome", handleWelcome)
	mux.HandleFunc("receipt", s.handleReceipt)
	mux.Handle("email", &EmailHandler{})
	mux.Handle("converted", asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		return send() // want `handler func literal in Register: email sent`
	}))
	mux.HandleFunc("literal", func(ctx context.Context, t *asynq.Task) error {
		return send() // want `handler func literal in Register: email sent`
	})
	river.AddWorker(workers, river.WorkFunc(func(ctx context.Context, job *river.Job[SortArgs]) error {
		return send() // want `handler func literal in Register: email sent`
	}))
	r.AddHandler("orders", "in", nil, "out", nil, OnOrder)
	r.AddConsumerHandler("shipped", "in", nil, onShipped)
}

// River worker.
type SortArgs struct{}

func (SortArgs) Kind() string { return "sort" }

type SortWorker struct {
	river.WorkerDefaults[SortArgs]
}

func (w *SortWorker) Work(ctx context.Context, job *river.Job[SortArgs]) error { // want Work:`effects email.send:unprotected\(smtp.SendMail\)`
	return send() // want `handler \(\*SortWorker\).Work: email sent`
}

// Watermill handlers.
func OnOrder(msg *message.Message) ([]*message.Message, error) { // want OnOrder:`effects email.send:unprotected\(smtp.SendMail\)`
	return nil, send() // want `handler OnOrder: email sent`
}

func onShipped(msg *message.Message) error {
	return send() // want `handler onShipped: email sent`
}

// A function of the project's own runtime, declared a handler by directive.
//
//idemlint:handler
func Consume(ctx context.Context, body []byte) error { // want Consume:`effects email.send:unprotected\(smtp.SendMail\)`
	return send() // want `handler Consume: email sent`
}

// Not a handler: same side effect, no handler shape, no directive.
func NotAHandler() error { return send() } // want NotAHandler:`effects email.send:unprotected\(smtp.SendMail\)`

// AddWorker is a registration helper over River's AddWorkerSafely: what its callers hand
// it is a River worker, which its fact says.
func AddWorker[T river.JobArgs](workers *river.Workers, w river.Worker[T]) error { // want AddWorker:`registers\(1 river\)`
	return river.AddWorkerSafely(workers, w)
}

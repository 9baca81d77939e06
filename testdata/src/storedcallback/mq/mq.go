// Package mq is a company's consumer around kafka-go: its constructor keeps the handler it // want package:"has effects"
// is given in a field, and Run calls it with each message it fetches. What callers pass
// there is a handler.
package mq

import (
	"context"
	"encoding/json"

	"github.com/segmentio/kafka-go"
)

// Order is what the consumer decodes.
type Order struct {
	ID string `json:"id"`
}

// Handler handles one order.
type Handler func(context.Context, Order) error

// Consumer fetches orders and hands each to its handler.
type Consumer struct {
	reader *kafka.Reader
	handle Handler
}

// NewConsumer keeps h: the handler of every order Run fetches.
func NewConsumer(r *kafka.Reader, h Handler) *Consumer { // want NewConsumer:`registers\(1 github.com/segmentio/kafka-go\)`
	return &Consumer{reader: r, handle: h}
}

// Run fetches, decodes, handles and commits.
func (c *Consumer) Run(ctx context.Context) error {
	for {
		m, err := c.reader.FetchMessage(ctx)
		if err != nil {
			return err
		}
		var o Order
		if err := json.Unmarshal(m.Value, &o); err != nil {
			continue
		}
		if err := c.handle(ctx, o); err != nil {
			continue
		}
		c.reader.CommitMessages(ctx, m)
	}
}

// Retrier keeps a function it calls again on failure: what it is given is no handler.
type Retrier struct {
	fn func(context.Context) error
}

// NewRetrier keeps fn.
func NewRetrier(fn func(context.Context) error) *Retrier { return &Retrier{fn: fn} }

// Do calls fn up to three times.
func (r *Retrier) Do(ctx context.Context) (err error) {
	for range 3 {
		if err = r.fn(ctx); err == nil {
			return nil
		}
	}
	return err
}

// OrderHandler is the interface a Worker's handler implements.
type OrderHandler interface {
	HandleOrder(context.Context, Order) error
}

// Auditor is told of each batch's end: it is given no message.
type Auditor interface {
	Done(context.Context, int) error
}

// Worker keeps an OrderHandler and runs its HandleOrder on each order, in a goroutine;
// it tells its Auditor how many it handled.
type Worker struct {
	reader *kafka.Reader
	h      OrderHandler
	audit  Auditor
}

// NewWorker keeps h and a.
func NewWorker(r *kafka.Reader, h OrderHandler, a Auditor) *Worker { // want NewWorker:`registers\(1 github.com/segmentio/kafka-go .HandleOrder\)`
	return &Worker{reader: r, h: h, audit: a}
}

// Start fetches, decodes and handles orders in the background.
func (w *Worker) Start(ctx context.Context) {
	go func() {
		n := 0
		for {
			m, err := w.reader.FetchMessage(ctx)
			if err != nil {
				_ = w.audit.Done(ctx, n)
				return
			}
			var o Order
			if json.Unmarshal(m.Value, &o) != nil {
				continue
			}
			if w.h.HandleOrder(ctx, o) == nil {
				n++
				w.reader.CommitMessages(ctx, m)
			}
		}
	}()
}

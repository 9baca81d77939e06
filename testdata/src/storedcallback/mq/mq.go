// Package mq is a company's consumer around kafka-go: its constructor keeps the handler it // want package:"has effects"
// is given in a field, and Run calls it with each message it fetches. What callers pass
// there is a handler.
package mq

import (
	"context"
	"database/sql"
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

// Router keeps a handler per topic and runs the one of each message's topic.
type Router struct {
	reader   *kafka.Reader
	handlers map[string]Handler
}

// Handle keeps h for topic.
func (r *Router) Handle(topic string, h Handler) { // want Handle:`registers\(1 github.com/segmentio/kafka-go\)`
	r.handlers[topic] = h
}

// Run fetches, decodes and hands each order to its topic's handler.
func (r *Router) Run(ctx context.Context) error {
	for {
		m, err := r.reader.FetchMessage(ctx)
		if err != nil {
			return err
		}
		var o Order
		if json.Unmarshal(m.Value, &o) != nil {
			continue
		}
		if h, ok := r.handlers[m.Topic]; ok && h(ctx, o) == nil {
			r.reader.CommitMessages(ctx, m)
		}
	}
}

// Pump is configured by its users' composite literal: OnOrder is their handler; OnIdle,
// called with no message, is not.
type Pump struct {
	Reader  *kafka.Reader
	OnOrder Handler // want OnOrder:`called-with-message\(github.com/segmentio/kafka-go\)`
	OnIdle  func(context.Context) error
}

// Run fetches, decodes and hands each order to OnOrder.
func (p *Pump) Run(ctx context.Context) error {
	for {
		m, err := p.Reader.FetchMessage(ctx)
		if err != nil {
			_ = p.OnIdle(ctx)
			continue
		}
		var o Order
		if json.Unmarshal(m.Value, &o) == nil && p.OnOrder(ctx, o) == nil {
			p.Reader.CommitMessages(ctx, m)
		}
	}
}

// Audit registers the package's own audit function on r: a handler of the map, as those
// its users register; the loop that calls it is none.
func Audit(r *Router) { r.handlers["audit"] = audit } // want Audit:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`

func audit(ctx context.Context, o Order) error {
	_, err := db.ExecContext(ctx, "INSERT INTO audit (order_id) VALUES ($1)", o.ID) // want `handler audit: SQL write not safe to repeat: INSERT without conflict handling \(audit -> \(\*sql.DB\).ExecContext\)`
	return err
}

var db *sql.DB

// PoolHandler is what a Pool's factory makes: one per worker, three methods; the loop
// hands HandleMessage the fetched message itself.
type PoolHandler interface {
	Setup() error
	HandleMessage(m kafka.Message) error
	Close()
}

// Factory makes a worker's handler.
type Factory func() PoolHandler

// Pool runs a worker with a handler its factory makes, reading through an interface of
// its own over the kafka-go reader: the reader's CommitMessages, handed the message too,
// is the library's, no handler.
type Pool struct {
	reader  source
	factory Factory
}

type source interface {
	FetchMessage(context.Context) (kafka.Message, error)
	CommitMessages(context.Context, ...kafka.Message) error
}

// NewPool keeps f.
func NewPool(r *kafka.Reader, f Factory) *Pool { // want NewPool:`registers\(1 github.com/segmentio/kafka-go factory .HandleMessage\)`
	return &Pool{reader: r, factory: f}
}

type poolWorker struct{ h PoolHandler }

func newPoolWorker(h PoolHandler) *poolWorker { return &poolWorker{h: h} }

// Run fetches and hands each message to the handler the factory made.
func (p *Pool) Run(ctx context.Context) {
	w := newPoolWorker(p.factory())
	for {
		m, err := p.reader.FetchMessage(ctx)
		if err != nil {
			w.h.Close()
			return
		}
		if w.h.HandleMessage(m) == nil {
			p.reader.CommitMessages(ctx, m)
		}
	}
}

// NopOrders is an OrderHandler that does nothing but count: NewWorker keeping the handler
// it is given makes no handler of the package's own implementation.
type NopOrders struct{}

// HandleOrder counts the order.
func (NopOrders) HandleOrder(ctx context.Context, o Order) error { // want HandleOrder:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO nop_counts (order_id) VALUES ($1)", o.ID)
	return err
}

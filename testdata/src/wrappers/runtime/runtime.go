// Package runtime is a company's own layer over its frameworks: registration wrappers (a // want package:"has effects"
// Temporal RegisterActivity of its own, a generic asynq Register, a Registrar interface
// whose implementation registers, a JetStream Consume loop) and plain callback helpers
// (Retry, WithTx) whose callbacks are not handlers.
package runtime

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/hibiken/asynq"
	"github.com/nats-io/nats.go"
	"go.temporal.io/sdk/worker"
)

// Runtime hosts the activities of a service.
type Runtime struct {
	w worker.Worker
}

// RegisterActivity hands a to the Temporal worker: a function, or a struct whose exported
// methods are activities.
func (r *Runtime) RegisterActivity(a any) { r.w.RegisterActivity(a) } // want RegisterActivity:`registers\(0 temporal methods\)`

// Register registers fn for the task type pattern, decoding the payload into a T.
func Register[T any](mux *asynq.ServeMux, pattern string, fn func(context.Context, T) error) { // want Register:`calls-params\(2\) registers\(2 asynq topic from param 1\)`
	mux.HandleFunc(pattern, func(ctx context.Context, t *asynq.Task) error {
		var v T
		if err := json.Unmarshal(t.Payload(), &v); err != nil {
			return err
		}
		return fn(ctx, v)
	})
}

// Registrar is the application's own registration interface.
type Registrar interface {
	Add(pattern string, h func(context.Context, []byte) error)
}

// MuxRegistrar registers on an asynq mux.
type MuxRegistrar struct{ Mux *asynq.ServeMux }

// Add registers h.
func (r MuxRegistrar) Add(pattern string, h func(context.Context, []byte) error) { // want Add:`calls-params\(1\) registers\(1 asynq topic from param 0\)`
	r.Mux.HandleFunc(pattern, func(ctx context.Context, t *asynq.Task) error { return h(ctx, t.Payload()) })
}

// Consume pulls messages of a durable consumer and hands each one's data to f, acking it
// when f succeeds.
func Consume(ctx context.Context, js nats.JetStreamContext, subject, durable string, f func(context.Context, []byte) error) error { // want Consume:`registers\(4 github.com/nats-io/nats.go\)`
	sub, err := js.PullSubscribe(subject, durable)
	if err != nil {
		return err
	}
	go func() {
		for ctx.Err() == nil {
			msgs, err := sub.Fetch(10)
			if err != nil {
				continue
			}
			for _, m := range msgs {
				if f(ctx, m.Data) == nil {
					_ = m.Ack()
				}
			}
		}
	}()
	return nil
}

// Listen pulls messages, acknowledges each one first, decodes it and hands the decoded value
// to f: what f is given runs at most once per message (a crash after the ack loses it).
func Listen[T any](js nats.JetStreamContext, subject, durable string, f func(v *T)) error { // want Listen:`calls-params\(3\) registers\(3 github.com/nats-io/nats.go once\)`
	sub, err := js.PullSubscribe(subject, durable)
	if err != nil {
		return err
	}
	for {
		msgs, err := sub.Fetch(5)
		if err != nil {
			continue
		}
		for _, m := range msgs {
			m.Ack()
			var v *T
			if err := json.Unmarshal(m.Data, &v); err != nil {
				return err
			}
			f(v)
		}
	}
}

// ListenAcked is Listen's twin that acknowledges after f: what f is given is redelivered
// after a crash, a handler like any other.
func ListenAcked[T any](js nats.JetStreamContext, subject, durable string, f func(v *T) error) error { // want ListenAcked:`calls-params\(3\) registers\(3 github.com/nats-io/nats.go\)`
	sub, err := js.PullSubscribe(subject, durable)
	if err != nil {
		return err
	}
	for {
		msgs, err := sub.Fetch(5)
		if err != nil {
			continue
		}
		for _, m := range msgs {
			var v T
			if err := json.Unmarshal(m.Data, &v); err != nil {
				continue
			}
			if f(&v) == nil {
				m.Ack()
			}
		}
	}
}

// Retry runs f until it succeeds, three times at most: f is no handler.
func Retry(f func() error) error { // want Retry:`calls-params\(0\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

// WithTx runs f in a transaction: f is no handler.
func WithTx(ctx context.Context, db *sql.DB, f func(*sql.Tx) error) error { // want WithTx:`calls-params\(2\)`
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// Every pulls each message's data and logs it: a loop that never calls its callback with
// what it pulled does not make the callback a handler.
func Every(ctx context.Context, sub *nats.Subscription, onError func(error)) { // want Every:`calls-params\(2\)`
	for ctx.Err() == nil {
		msgs, err := sub.Fetch(10)
		if err != nil {
			onError(err)
			continue
		}
		_ = msgs
	}
}

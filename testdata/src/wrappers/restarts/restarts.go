// Package restarts holds a consumer whose handler starts another consumer: a control // want package:"has effects"
// topic's handler that, on a command, subscribes a reader whose loop calls back with each
// message it fetches. Starting a consumer runs none of its messages: the callback is the
// new consumer's handler, and the control handler does not make its effects. A function
// that calls its callback itself, outside a loop over what it received, runs it for its
// caller.
package restarts

import (
	"context"
	"net/http"
	"strings"

	"github.com/segmentio/kafka-go"
)

// consume starts a reader of topic whose loop hands each message it fetches to listener,
// through a retry, and commits it when the listener succeeds.
func consume(ctx context.Context, topic string, listener func(value []byte) error) {
	r := kafka.NewReader(kafka.ReaderConfig{Topic: topic})
	go func() {
		for {
			m, err := r.FetchMessage(ctx)
			if err != nil {
				return
			}
			if retry(func() error { return listener(m.Value) }) == nil {
				_ = r.CommitMessages(ctx, m)
			}
		}
	}()
}

// retry runs f until it succeeds, three times at most.
func retry(f func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = f(); err == nil {
			return nil
		}
	}
	return err
}

// once runs f for the value it is given: its caller's call runs it.
func once(value []byte, f func(value []byte) error) error { return f(value) }

// trigger starts a workflow for a message: an HTTP POST with no key.
func trigger(value []byte) error {
	_, err := http.Post("https://engine.example.com/message", "application/json", strings.NewReader(string(value)))
	return err
}

// startWorkers subscribes the work topic, whose handler triggers the workflow.
func startWorkers(ctx context.Context) {
	consume(ctx, "work", func(value []byte) error {
		return trigger(value) // want `handler func literal in startWorkers: HTTP POST`
	})
}

// Run starts the control consumer: on each command it restarts the workers, and triggers
// nothing itself.
func Run(ctx context.Context) {
	consume(ctx, "control", func(value []byte) error {
		startWorkers(ctx)
		return nil
	})
}

// RunInline also triggers the workflow for each command, through once: its own effect.
func RunInline(ctx context.Context) {
	consume(ctx, "commands", func(value []byte) error {
		return once(value, trigger) // want `handler func literal in RunInline: HTTP POST`
	})
}

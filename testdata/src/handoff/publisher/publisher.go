// Package publisher holds a worker whose Kafka loop hands each message to a Handler and // want package:"has effects"
// the ones it fails to a Publisher (the dead-letter topic): the Handler its callers pass is
// the handler; the Publisher is the loop's way out, and its implementation is none.
package publisher

import (
	"context"

	"github.com/segmentio/kafka-go"
)

// Handler handles one message's value.
type Handler interface {
	Handle(ctx context.Context, value []byte) error
}

// Publisher sends a message on.
type Publisher interface {
	Publish(ctx context.Context, key string, value []byte) error
}

type Worker struct {
	reader  *kafka.Reader
	handler Handler
	dlq     Publisher
}

func NewWorker(r *kafka.Reader, h Handler, dlq Publisher) *Worker { // want NewWorker:`registers\(1 github.com/segmentio/kafka-go .Handle\)`
	return &Worker{reader: r, handler: h, dlq: dlq}
}

func (w *Worker) Run(ctx context.Context) {
	for {
		m, err := w.reader.FetchMessage(ctx)
		if err != nil {
			return
		}
		if err := w.handler.Handle(ctx, m.Value); err != nil {
			_ = w.dlq.Publish(ctx, string(m.Key), m.Value)
		}
		_ = w.reader.CommitMessages(ctx, m)
	}
}

// Package source fetches messages and converts them to model.Events: its Next is a receive
// of whoever calls it, not a handler.
package source

import (
	"context"

	"consumers/model"

	"github.com/segmentio/kafka-go"
)

// Source reads one topic.
type Source struct{ r *kafka.Reader }

// New makes a Source.
func New(r *kafka.Reader) *Source { return &Source{r: r} }

// Next fetches and converts one message.
func (s *Source) Next(ctx context.Context) (model.Event, error) {
	m, err := s.r.FetchMessage(ctx)
	if err != nil {
		return model.Event{}, err
	}
	return model.Event{ID: string(m.Key), Body: m.Value}, nil
}

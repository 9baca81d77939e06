package kafka

import (
	"context"

	"github.com/segmentio/kafka-go"
)

// Event is the service's own form of a message.
type Event struct {
	ID   string
	Body []byte
}

// Source fetches messages and converts them: its Next returns what it received, so it is
// no handler, and the loop that calls it is.
type Source struct{ r *kafka.Reader }

// Next converts one fetched message.
func (s *Source) Next(ctx context.Context) (Event, error) { // want Next:`receives\(github.com/segmentio/kafka-go\)`
	m, err := s.r.FetchMessage(ctx)
	if err != nil {
		return Event{}, err
	}
	return Event{ID: string(m.Key), Body: m.Value}, nil
}

// Drain handles what Next returns.
func (s *Source) Drain(ctx context.Context) {
	for {
		ev, err := s.Next(ctx)
		if err != nil {
			return
		}
		_, _ = db.ExecContext(ctx, "INSERT INTO events (id) VALUES ($1)", ev.ID) // want `handler receive loop in \(\*Source\).Drain: SQL write not safe to repeat: INSERT without conflict handling`
	}
}

// Lag fetches one message and returns how long its key is: no message, and the twin
// stays a handler of its own (its receive, with nothing after it, has no effects).
func (s *Source) Lag(ctx context.Context) (int, error) {
	m, err := s.r.FetchMessage(ctx)
	if err != nil {
		return 0, err
	}
	return len(m.Key), nil
}

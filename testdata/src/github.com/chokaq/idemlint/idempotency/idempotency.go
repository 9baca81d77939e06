// Package idempotency is a stub of idemlint's runtime middleware module, with the real
// signatures of what the analyzer recognises.
package idempotency

import (
	"context"
	"time"
)

type HandlerFunc[J any] func(ctx context.Context, job J) error

type KeyFunc[J any] func(job J) (string, error)

type Option func(*config)

type config struct{}

type Middleware[J any] struct{}

func New[J any](key KeyFunc[J], opts ...Option) (*Middleware[J], error) { panic("stub") }

func (m *Middleware[J]) Wrap(next HandlerFunc[J]) HandlerFunc[J] { panic("stub") }

func WithRetention(d time.Duration) Option { panic("stub") }

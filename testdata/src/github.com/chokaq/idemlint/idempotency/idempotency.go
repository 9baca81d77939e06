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

// Claim is the claim a handler runs under (StepInTx's load and save get it).
type Claim struct {
	Key       string
	StoreKey  string
	Token     Token
	Retention time.Duration
	Result    []byte
}

type Token struct {
	Owner string
	Epoch int64
}

func ClaimFromContext(ctx context.Context) (Claim, bool) { panic("stub") }

// Step runs fn as a recovery point: its result is recorded once it succeeds.
func Step[T any](ctx context.Context, name string, fn func(ctx context.Context) (T, error)) (T, error) {
	panic("stub")
}

func StepInTx[T any](ctx context.Context, name string,
	load func(c Claim) (result []byte, found bool, err error),
	save func(c Claim, result []byte) error,
	fn func(ctx context.Context) (T, error),
) (T, error) {
	panic("stub")
}

// NeedsReview marks a handler's error as asking for manual review.
func NeedsReview(err error) error { panic("stub") }

func WithNeedsReview(review func(err error) bool) Option { panic("stub") }

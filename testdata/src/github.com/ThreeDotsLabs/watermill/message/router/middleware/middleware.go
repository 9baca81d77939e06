// Package middleware is a stub of
// github.com/ThreeDotsLabs/watermill/message/router/middleware v1.5.1 for the
// analyzer tests: the Deduplicator, its in-memory repository, and one other
// middleware.
package middleware

import (
	"context"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
)

// ExpiringKeyRepository remembers keys for a time window.
type ExpiringKeyRepository interface {
	IsDuplicate(ctx context.Context, key string) (ok bool, err error)
}

// NewMapExpiringKeyRepository returns a repository in the process's memory.
func NewMapExpiringKeyRepository(window time.Duration) (ExpiringKeyRepository, error) {
	panic("stub")
}

// MessageHasher returns a short tag that describes a message.
type MessageHasher func(*message.Message) (string, error)

// NewMessageHasherSHA256 hashes the first readLimit bytes of the payload.
func NewMessageHasherSHA256(readLimit int64) MessageHasher { panic("stub") }

// Deduplicator drops messages whose key its repository has seen in its window.
type Deduplicator struct {
	KeyFactory MessageHasher
	Repository ExpiringKeyRepository
	Timeout    time.Duration
}

// Middleware returns the middleware that drops duplicate messages.
func (d *Deduplicator) Middleware(h message.HandlerFunc) message.HandlerFunc { panic("stub") }

// Recoverer turns a panic in the handler into an error.
func Recoverer(h message.HandlerFunc) message.HandlerFunc { panic("stub") }

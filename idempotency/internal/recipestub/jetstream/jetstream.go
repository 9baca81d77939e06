// Package jetstream stands in for github.com/nats-io/nats.go/jetstream's publishing API
// (see recipestub).
package jetstream

import (
	"context"

	"github.com/chokaq/idemlint/idempotency/internal/recipestub/nats"
)

// JetStream is the publishing part of jetstream.JetStream.
type JetStream interface {
	PublishMsg(ctx context.Context, msg *nats.Msg, opts ...PublishOpt) (*PubAck, error)
}

// PublishOpt is a publish option.
type PublishOpt func(*pubOpts) error

type pubOpts struct{ id string }

// WithMsgID sets the message ID (the Nats-Msg-Id header), which the stream deduplicates on.
func WithMsgID(id string) PublishOpt { return func(o *pubOpts) error { o.id = id; return nil } }

// PubAck is the stream's acknowledgement; Duplicate is set for a message ID it already had.
type PubAck struct {
	Stream    string
	Sequence  uint64
	Duplicate bool
}

// Package valkey is a stub of github.com/valkey-io/valkey-go: a client whose commands are built by
// chains of builder methods (client.B().Xreadgroup()...Build()) and sent with Do. The builder
// types are aliases of the internal cmds package's.
package valkey

import (
	"context"

	"github.com/valkey-io/valkey-go/internal/cmds"
)

// Builder starts every command.
type Builder = cmds.Builder

// Incomplete is a command whose chain has not reached Build.
type Incomplete = cmds.Incomplete

// Completed is a built command.
type Completed = cmds.Completed

// ClientOption configures NewClient.
type ClientOption struct {
	InitAddress []string
}

// NewClient connects to the nodes of option.
func NewClient(option ClientOption) (client Client, err error) { return nil, nil }

// CommandClient builds and sends commands.
type CommandClient interface {
	B() Builder
	Do(ctx context.Context, cmd Completed) (resp ValkeyResult)
	DoMulti(ctx context.Context, multi ...Completed) (resp []ValkeyResult)
}

// CoreClient adds subscriptions.
type CoreClient interface {
	CommandClient
	Receive(ctx context.Context, subscribe Completed, fn func(msg PubSubMessage)) error
	Close()
}

// Client is what NewClient returns.
type Client interface {
	CoreClient
}

// ValkeyMessage is one reply.
type ValkeyMessage struct {
	intlen int64
	typ    byte
}

// ValkeyResult is a reply or the error that stood in for it.
type ValkeyResult struct {
	err error
	val ValkeyMessage
}

func (r ValkeyResult) Error() (err error) { return r.err }

func (r ValkeyResult) AsInt64() (v int64, err error) { return 0, r.err }

func (r ValkeyResult) AsBool() (v bool, err error) { return false, r.err }

func (r ValkeyResult) ToString() (v string, err error) { return "", r.err }

func (r ValkeyResult) AsXRead() (v map[string][]XRangeEntry, err error) { return nil, r.err }

func (r ValkeyResult) ToArray() (v []ValkeyMessage, err error) { return nil, r.err }

func (m *ValkeyMessage) AsXRange() ([]XRangeEntry, error) { return nil, nil }

// XRangeEntry is one stream entry.
type XRangeEntry struct {
	FieldValues map[string]string
	ID          string
}

// PubSubMessage is one message a subscription received.
type PubSubMessage struct {
	Pattern string
	Channel string
	Message string
}

// Package rueidis is a stub of github.com/redis/rueidis: a client whose commands are built by
// chains of builder methods (client.B().Xreadgroup()...Build()) and sent with Do. The builder
// types are aliases of the internal cmds package's.
package rueidis

import (
	"context"

	"github.com/redis/rueidis/internal/cmds"
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
	Do(ctx context.Context, cmd Completed) (resp RedisResult)
	DoMulti(ctx context.Context, multi ...Completed) (resp []RedisResult)
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

// RedisMessage is one reply.
type RedisMessage struct {
	intlen int64
	typ    byte
}

// RedisResult is a reply or the error that stood in for it.
type RedisResult struct {
	err error
	val RedisMessage
}

func (r RedisResult) Error() (err error) { return r.err }

func (r RedisResult) AsInt64() (v int64, err error) { return 0, r.err }

func (r RedisResult) AsBool() (v bool, err error) { return false, r.err }

func (r RedisResult) ToString() (v string, err error) { return "", r.err }

func (r RedisResult) AsXRead() (v map[string][]XRangeEntry, err error) { return nil, r.err }

func (r RedisResult) ToArray() (v []RedisMessage, err error) { return nil, r.err }

func (m *RedisMessage) AsXRange() ([]XRangeEntry, error) { return nil, nil }

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

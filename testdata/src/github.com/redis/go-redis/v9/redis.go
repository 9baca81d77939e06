// Package redis is a stub of github.com/redis/go-redis/v9 v9.23.0 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
//
// The real command interfaces are far larger and Cmder has unexported methods
// over internal packages; the stub's interfaces declare a subset of their
// methods (apicheck's partialInterfaces lists each with the reason).
package redis

import (
	"context"
	"time"
)

// Options configures a Client.
type Options struct {
	Addr string
}

// Client is a Redis client. Its commands are the methods of the embedded
// cmdable, so a call rdb.Incr(...) calls (cmdable).Incr.
type Client struct {
	cmdable
}

// NewClient returns a client for the server in opt.
func NewClient(opt *Options) *Client { return &Client{} }

// Close closes the client.
func (c *Client) Close() error { return nil }

// Cmder is a command.
type Cmder interface {
	Name() string
	Args() []interface{}
	Err() error
}

// cmdable runs a command; the commands are its methods.
type cmdable func(ctx context.Context, cmd Cmder) error

// baseCmd holds what all commands share; the result types embed it.
type baseCmd struct {
	err error
}

// Err returns the command's error.
func (cmd *baseCmd) Err() error { return cmd.err }

// IntCmd is a command with an integer reply.
type IntCmd struct {
	baseCmd

	val int64
}

// Val returns the reply.
func (cmd *IntCmd) Val() int64 { return cmd.val }

// Result returns the reply and the error.
func (cmd *IntCmd) Result() (int64, error) { return cmd.val, cmd.err }

// BoolCmd is a command with a boolean reply.
type BoolCmd struct {
	baseCmd

	val bool
}

// Val returns the reply.
func (cmd *BoolCmd) Val() bool { return cmd.val }

// Result returns the reply and the error.
func (cmd *BoolCmd) Result() (bool, error) { return cmd.val, cmd.err }

// StatusCmd is a command with a status reply.
type StatusCmd struct {
	baseCmd

	val string
}

// Val returns the reply.
func (cmd *StatusCmd) Val() string { return cmd.val }

// Result returns the reply and the error.
func (cmd *StatusCmd) Result() (string, error) { return cmd.val, cmd.err }

// StringCmd is a command with a string reply.
type StringCmd struct {
	baseCmd

	val string
}

// Val returns the reply.
func (cmd *StringCmd) Val() string { return cmd.val }

// Result returns the reply and the error.
func (cmd *StringCmd) Result() (string, error) { return cmd.val, cmd.err }

// FloatCmd is a command with a floating-point reply.
type FloatCmd struct {
	baseCmd

	val float64
}

// Val returns the reply.
func (cmd *FloatCmd) Val() float64 { return cmd.val }

// Result returns the reply and the error.
func (cmd *FloatCmd) Result() (float64, error) { return cmd.val, cmd.err }

// XAddArgs are the arguments of XADD.
type XAddArgs struct {
	Stream string
	ID     string
	Values interface{}
}

// XReadGroupArgs are the arguments of XREADGROUP.
type XReadGroupArgs struct {
	Group    string
	Consumer string
	Streams  []string
	Count    int64
	Block    time.Duration
	NoAck    bool
}

// XAutoClaimArgs are the arguments of XAUTOCLAIM.
type XAutoClaimArgs struct {
	Stream   string
	Group    string
	MinIdle  time.Duration
	Start    string
	Count    int64
	Consumer string
}

// XClaimArgs are the arguments of XCLAIM.
type XClaimArgs struct {
	Stream   string
	Group    string
	Consumer string
	MinIdle  time.Duration
	Messages []string
}

// XMessage is a stream entry.
type XMessage struct {
	ID     string
	Values map[string]interface{}
}

// XStream is the entries read from one stream.
type XStream struct {
	Stream   string
	Messages []XMessage
}

// XStreamSliceCmd is a command with a reply of streams' entries.
type XStreamSliceCmd struct {
	baseCmd

	val []XStream
}

// Val returns the reply.
func (cmd *XStreamSliceCmd) Val() []XStream { return cmd.val }

// Result returns the reply and the error.
func (cmd *XStreamSliceCmd) Result() ([]XStream, error) { return cmd.val, cmd.err }

// XMessageSliceCmd is a command with a reply of entries.
type XMessageSliceCmd struct {
	baseCmd

	val []XMessage
}

// Val returns the reply.
func (cmd *XMessageSliceCmd) Val() []XMessage { return cmd.val }

// Result returns the reply and the error.
func (cmd *XMessageSliceCmd) Result() ([]XMessage, error) { return cmd.val, cmd.err }

// XAutoClaimCmd is the XAUTOCLAIM command: the claimed entries and the next start id.
type XAutoClaimCmd struct {
	baseCmd

	start string
	val   []XMessage
}

// Val returns the reply.
func (cmd *XAutoClaimCmd) Val() (messages []XMessage, start string) { return cmd.val, cmd.start }

// Result returns the reply and the error.
func (cmd *XAutoClaimCmd) Result() (messages []XMessage, start string, err error) {
	return cmd.val, cmd.start, cmd.err
}

// UniversalClient is implemented by Client, ClusterClient and Ring.
type UniversalClient interface {
	Cmdable
	Close() error
}

// Cmdable is the command set every client and pipeline has.
type Cmdable interface {
	GenericCmdable
	HashCmdable
	ListCmdable
	PubSubCmdable
	SortedSetCmdable
	SetCmdable
	StringCmdable
	StreamCmdable
}

// GenericCmdable holds the key commands.
type GenericCmdable interface {
	Del(ctx context.Context, keys ...string) *IntCmd
}

// StringCmdable holds the string commands.
type StringCmdable interface {
	Decr(ctx context.Context, key string) *IntCmd
	Get(ctx context.Context, key string) *StringCmd
	DecrBy(ctx context.Context, key string, decrement int64) *IntCmd
	Incr(ctx context.Context, key string) *IntCmd
	IncrBy(ctx context.Context, key string, value int64) *IntCmd
	IncrByFloat(ctx context.Context, key string, value float64) *FloatCmd
	Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd
	SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd
}

// HashCmdable holds the hash commands.
type HashCmdable interface {
	HIncrBy(ctx context.Context, key, field string, incr int64) *IntCmd
	HIncrByFloat(ctx context.Context, key, field string, incr float64) *FloatCmd
	HSet(ctx context.Context, key string, values ...interface{}) *IntCmd
	HSetNX(ctx context.Context, key, field string, value interface{}) *BoolCmd
}

// ListCmdable holds the list commands.
type ListCmdable interface {
	LPush(ctx context.Context, key string, values ...interface{}) *IntCmd
	LPushX(ctx context.Context, key string, values ...interface{}) *IntCmd
	RPush(ctx context.Context, key string, values ...interface{}) *IntCmd
	RPushX(ctx context.Context, key string, values ...interface{}) *IntCmd
}

// SortedSetCmdable holds the sorted set commands.
type SortedSetCmdable interface {
	ZIncrBy(ctx context.Context, key string, increment float64, member string) *FloatCmd
}

// StreamCmdable holds the stream commands.
type StreamCmdable interface {
	XAdd(ctx context.Context, a *XAddArgs) *StringCmd
	XReadGroup(ctx context.Context, a *XReadGroupArgs) *XStreamSliceCmd
	XAck(ctx context.Context, stream, group string, ids ...string) *IntCmd
	XClaim(ctx context.Context, a *XClaimArgs) *XMessageSliceCmd
	XAutoClaim(ctx context.Context, a *XAutoClaimArgs) *XAutoClaimCmd
}

// SetCmdable holds the set commands.
type SetCmdable interface {
	SAdd(ctx context.Context, key string, members ...interface{}) *IntCmd
}

// PubSubCmdable holds the publish commands.
type PubSubCmdable interface {
	Publish(ctx context.Context, channel string, message interface{}) *IntCmd
	SPublish(ctx context.Context, channel string, message interface{}) *IntCmd
}

func (c cmdable) Del(ctx context.Context, keys ...string) *IntCmd { return &IntCmd{} }

func (c cmdable) Decr(ctx context.Context, key string) *IntCmd { return &IntCmd{} }

func (c cmdable) Get(ctx context.Context, key string) *StringCmd { return &StringCmd{} }

func (c cmdable) DecrBy(ctx context.Context, key string, decrement int64) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) Incr(ctx context.Context, key string) *IntCmd { return &IntCmd{} }

func (c cmdable) IncrBy(ctx context.Context, key string, value int64) *IntCmd { return &IntCmd{} }

func (c cmdable) IncrByFloat(ctx context.Context, key string, value float64) *FloatCmd {
	return &FloatCmd{}
}

func (c cmdable) Set(ctx context.Context, key string, value interface{}, expiration time.Duration) *StatusCmd {
	return &StatusCmd{}
}

func (c cmdable) SetNX(ctx context.Context, key string, value interface{}, expiration time.Duration) *BoolCmd {
	return &BoolCmd{}
}

func (c cmdable) HIncrBy(ctx context.Context, key, field string, incr int64) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) HIncrByFloat(ctx context.Context, key, field string, incr float64) *FloatCmd {
	return &FloatCmd{}
}

func (c cmdable) HSet(ctx context.Context, key string, values ...interface{}) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) HSetNX(ctx context.Context, key, field string, value interface{}) *BoolCmd {
	return &BoolCmd{}
}

func (c cmdable) LPush(ctx context.Context, key string, values ...interface{}) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) LPushX(ctx context.Context, key string, values ...interface{}) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) RPush(ctx context.Context, key string, values ...interface{}) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) RPushX(ctx context.Context, key string, values ...interface{}) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) ZIncrBy(ctx context.Context, key string, increment float64, member string) *FloatCmd {
	return &FloatCmd{}
}

func (c cmdable) XAdd(ctx context.Context, a *XAddArgs) *StringCmd { return &StringCmd{} }

func (c cmdable) XReadGroup(ctx context.Context, a *XReadGroupArgs) *XStreamSliceCmd {
	return &XStreamSliceCmd{}
}

func (c cmdable) XAck(ctx context.Context, stream, group string, ids ...string) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) XClaim(ctx context.Context, a *XClaimArgs) *XMessageSliceCmd {
	return &XMessageSliceCmd{}
}

func (c cmdable) XAutoClaim(ctx context.Context, a *XAutoClaimArgs) *XAutoClaimCmd {
	return &XAutoClaimCmd{}
}

func (c cmdable) SAdd(ctx context.Context, key string, members ...interface{}) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) Publish(ctx context.Context, channel string, message interface{}) *IntCmd {
	return &IntCmd{}
}

func (c cmdable) SPublish(ctx context.Context, channel string, message interface{}) *IntCmd {
	return &IntCmd{}
}

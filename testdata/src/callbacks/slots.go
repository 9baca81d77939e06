package callbacks

import (
	"context"

	"github.com/hibiken/asynq"
)

// A consumer whose callback is set in its constructor and called by its handler method.
type consumer struct {
	onItem func(ctx context.Context, item []byte) error
}

func newConsumer(s *store) *consumer { return &consumer{onItem: s.save} }

func (c *consumer) ProcessTask(ctx context.Context, t *asynq.Task) error { // want ProcessTask:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return c.onItem(ctx, t.Payload()) // want `handler \(\*consumer\).ProcessTask: SQL write not safe to repeat: INSERT without conflict handling \(\(\*consumer\).ProcessTask -> \(\*callbacks.store\).save -> \(\*sql.DB\).ExecContext\)`
}

// The twin: a field only ever given a function with no effects.
type quiet struct {
	onItem func(ctx context.Context, item []byte) error
}

func newQuiet() *quiet {
	q := &quiet{}
	q.onItem = func(context.Context, []byte) error { return nil }
	return q
}

func (q *quiet) ProcessTask(ctx context.Context, t *asynq.Task) error {
	return q.onItem(ctx, t.Payload())
}

// A dispatch table in a package variable, called by index and through a comma-ok read.
var routes = map[string]func(ctx context.Context, item []byte) error{
	"record": record,
	"none":   func(context.Context, []byte) error { return nil },
}

func Dispatch(ctx context.Context, t *asynq.Task) error { // want Dispatch:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return routes[t.Type()](ctx, t.Payload()) // want `handler Dispatch: SQL write not safe to repeat: INSERT without conflict handling \(Dispatch -> callbacks.record -> \(\*sql.DB\).ExecContext\)`
}

func Lookup(ctx context.Context, t *asynq.Task) error { // want Lookup:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if f, ok := routes[t.Type()]; ok {
		return f(ctx, t.Payload()) // want `handler Lookup: SQL write not safe to repeat`
	}
	return nil
}

// The twin: a table of functions with no effects.
var quietRoutes = map[string]func(ctx context.Context, item []byte) error{
	"none": func(context.Context, []byte) error { return nil },
}

func DispatchQuiet(ctx context.Context, t *asynq.Task) error {
	return quietRoutes[t.Type()](ctx, t.Payload())
}

// A package variable assigned in init.
var hook func(ctx context.Context, item []byte) error

func init() { hook = record }

func Hooked(ctx context.Context, t *asynq.Task) error { // want Hooked:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return hook(ctx, t.Payload()) // want `handler Hooked: SQL write not safe to repeat`
}

// A field filled by index in a constructor, the table kept in a local variable first.
type router struct {
	routes map[string]func(ctx context.Context, item []byte) error
}

func newRouter() *router {
	table := map[string]func(ctx context.Context, item []byte) error{"a": record}
	return &router{routes: table}
}

func (r *router) ProcessTask(ctx context.Context, t *asynq.Task) error { // want ProcessTask:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return r.routes[t.Type()](ctx, t.Payload()) // want `handler \(\*router\).ProcessTask: SQL write not safe to repeat`
}

// A stored value that calls its own slot again: the cycle settles.
type ticker struct {
	next func(ctx context.Context, item []byte) error
}

func newTicker() *ticker {
	t := &ticker{}
	t.next = t.step
	return t
}

func (t *ticker) step(ctx context.Context, item []byte) error { // want step:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if len(item) == 0 {
		return nil
	}
	if err := record(ctx, item); err != nil {
		return err
	}
	return t.next(ctx, item[1:])
}

func (t *ticker) ProcessTask(ctx context.Context, task *asynq.Task) error { // want ProcessTask:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return t.next(ctx, task.Payload()) // want `handler \(\*ticker\).ProcessTask: SQL write not safe to repeat: INSERT without conflict handling \(\(\*ticker\).ProcessTask -> \(\*callbacks.ticker\).step -> callbacks.record -> \(\*sql.DB\).ExecContext\)`
}

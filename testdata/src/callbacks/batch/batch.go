// Package batch is a helper package in the shape of a consumer library: it unpacks a task // want package:"has effects"
// and calls the callback it is given, so what the callback does happens in each caller.
package batch

import (
	"context"

	"github.com/hibiken/asynq"
)

// Func is what the helpers call for each item.
type Func func(ctx context.Context, item []byte) error

// Each calls f on the task's payload: parameter 2 is called, and only called.
func Each(ctx context.Context, t *asynq.Task, f Func) error { // want Each:`calls-params\(2\)`
	if f == nil {
		return nil
	}
	return f(ctx, t.Payload())
}

// Loop calls f from a goroutine it starts, and hands it on to Each: still only called.
func Loop(ctx context.Context, t *asynq.Task, f Func) error { // want Loop:`calls-params\(2\)`
	done := make(chan error, 1)
	go func() { done <- Each(ctx, t, f) }()
	return <-done
}

// Retry calls f, then itself with f: recursion keeps the parameter called.
func Retry(ctx context.Context, n int, t *asynq.Task, f Func) error { // want Retry:`calls-params\(3\)`
	if err := f(ctx, t.Payload()); err == nil || n == 0 {
		return err
	}
	return Retry(ctx, n-1, t, f)
}

var kept []Func

// Keep stores f for later: it escapes, so Keep's fact says nothing of it and a callback
// passed here counts where it is made.
func Keep(f Func) { kept = append(kept, f) }

// Option configures Consume.
type Option func()

// Consume calls f and takes options after it, as consumer helpers do.
func Consume(ctx context.Context, t *asynq.Task, f Func, opts ...Option) error { // want Consume:`calls-params\(2\)`
	for _, o := range opts {
		o()
	}
	return f(ctx, t.Payload())
}

// Package idemasynq is a stub of the runtime middleware's asynq adapter, with the real
// signatures of what the analyzer recognises.
package idemasynq

import (
	"github.com/chokaq/idemlint/idempotency"
	"github.com/hibiken/asynq"
)

func New(taskType string, key idempotency.KeyFunc[*asynq.Task], opts ...idempotency.Option) (asynq.MiddlewareFunc, error) {
	panic("stub")
}

func Middleware(mw *idempotency.Middleware[*asynq.Task], taskType string, more ...string) asynq.MiddlewareFunc {
	panic("stub")
}

func Handler(mw *idempotency.Middleware[*asynq.Task], next asynq.Handler) asynq.Handler {
	panic("stub")
}

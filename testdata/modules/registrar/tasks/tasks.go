// Package tasks routes task handlers of its own interface onto an asynq mux; the
// implementations live in packages it never imports, wired in main.
package tasks

import (
	"context"

	"github.com/hibiken/asynq"
)

// Handler is the service's task handler interface.
type Handler interface {
	Handle(ctx context.Context, t *asynq.Task) error
}

// Route registers each handler's Handle method under its task type.
func Route(mux *asynq.ServeMux, hs map[string]Handler) {
	for name, h := range hs {
		mux.HandleFunc(name, h.Handle)
	}
}

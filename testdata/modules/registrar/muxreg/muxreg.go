// Package muxreg implements app.Registrar on an asynq mux.
package muxreg

import (
	"context"

	"github.com/hibiken/asynq"
)

// Mux registers on an asynq mux.
type Mux struct{ M *asynq.ServeMux }

// Add registers h for the task type name.
func (m Mux) Add(name string, h func(ctx context.Context, data []byte) error) {
	m.M.HandleFunc(name, func(ctx context.Context, t *asynq.Task) error { return h(ctx, t.Payload()) })
}

// Package asynq is a stub of the part of asynq the test registers with.
package asynq

import "context"

// Task is a unit of work.
type Task struct{ payload []byte }

// Payload returns the task's data.
func (t *Task) Payload() []byte { return t.payload }

// ServeMux routes tasks to handlers by type name.
type ServeMux struct{}

// NewServeMux returns a mux.
func NewServeMux() *ServeMux { return &ServeMux{} }

// HandleFunc registers a handler function for a task type pattern.
func (mux *ServeMux) HandleFunc(pattern string, handler func(context.Context, *Task) error) {}

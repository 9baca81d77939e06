// Package tsvc is the service's own Temporal layer: an interface whose implementation // want package:"has effects"
// registers an activity on the worker of a task queue.
package tsvc

import "go.temporal.io/sdk/worker"

// Service registers activities by task queue.
type Service interface {
	RegisterActivity(queue string, a any) error
}

type impl struct{ w worker.Worker }

// New returns the service.
func New(w worker.Worker) Service { return &impl{w} }

func (s *impl) RegisterActivity(queue string, a any) error { // want RegisterActivity:`registers\(1 temporal methods\)`
	s.w.RegisterActivity(a)
	return nil
}

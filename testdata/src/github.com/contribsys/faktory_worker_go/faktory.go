// Package faktory_worker is a stub of github.com/contribsys/faktory_worker_go
// v1.7.0 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package faktory_worker

import "context"

// Perform is a job handler.
type Perform func(ctx context.Context, args ...interface{}) error

// Manager runs the registered jobs.
type Manager struct {
	Concurrency int
}

// NewManager returns a manager.
func NewManager() *Manager { return &Manager{} }

// Register registers fn as the handler of the jobs of type name.
func (mgr *Manager) Register(name string, fn Perform) {}

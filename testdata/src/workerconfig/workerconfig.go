// Package workerconfig lists a task queue's activities as method values in a field of a // want package:"has effects"
// configuration struct, and registers them in a loop over the field through the service's
// own interface: each listed method is an activity, reported here.
package workerconfig

import (
	"workerconfig/acts"
	"workerconfig/tsvc"
)

// WorkerConfig is a task queue's workflows and activities.
type WorkerConfig struct {
	Queue      string
	Activities []any
}

func build(inv acts.Invoices) WorkerConfig {
	var list []any
	list = append(list, inv.Compute) // want `handler \(acts.Invoices\).Compute: SQL write not safe to repeat: INSERT without conflict handling`
	list = append(list, inv.Mark)
	return WorkerConfig{Queue: "invoices", Activities: list}
}

func registerWorker(s tsvc.Service, c WorkerConfig) {
	for _, a := range c.Activities {
		_ = s.RegisterActivity(c.Queue, a)
	}
}

// Setup registers the invoices queue's activities.
func Setup(s tsvc.Service) { // want Setup:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	registerWorker(s, build(acts.Invoices{}))
}

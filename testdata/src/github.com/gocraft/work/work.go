// Package work is a stub of github.com/gocraft/work v0.5.1 for the analyzer
// tests. It declares only what idemlint's models and test packages use, with
// the real signatures; apicheck keeps it in step with the real API.
package work

// Job is a job to run.
type Job struct {
	Name string `json:"name,omitempty"`
	ID   string `json:"id"`
}

// JobOptions can be passed to JobWithOptions.
type JobOptions struct {
	Priority uint
	MaxFails uint
}

// WorkerPool runs the registered jobs.
type WorkerPool struct{ namespace string }

// Job registers fn, a function of a *Job returning an error, as the handler of
// the jobs named name.
func (wp *WorkerPool) Job(name string, fn interface{}) *WorkerPool { return wp }

// JobWithOptions registers fn with options.
func (wp *WorkerPool) JobWithOptions(name string, jobOpts JobOptions, fn interface{}) *WorkerPool {
	return wp
}

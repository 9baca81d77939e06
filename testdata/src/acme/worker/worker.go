// Package worker is a company's own activity runtime: RegisterActivity takes a function or
// a struct whose exported methods are all activities, like Temporal's.
package worker

type Worker struct{}

func (w *Worker) RegisterActivity(a any) {}

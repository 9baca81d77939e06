// Command worker runs the service's River workers.
package main

import (
	"github.com/riverqueue/river"

	"riverjobs/jobs"
	"riverjobs/schedule"
)

func main() {
	workers := river.NewWorkers()
	river.AddWorker(workers, &jobs.RefreshWorker{})
	river.AddWorker(workers, &jobs.NotifyWorker{})
	river.AddWorker(workers, &schedule.RefreshAllWorker{})
	river.AddWorker(workers, &schedule.NotifyAllWorker{})
	river.AddWorker(workers, &schedule.MixedWorker{})
	river.AddWorker(workers, &schedule.RefreshOneWorker{})
	river.AddWorker(workers, &schedule.NotifyOneWorker{})
}

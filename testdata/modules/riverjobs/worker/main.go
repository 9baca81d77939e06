// Command worker runs the service's River workers.
package main

import (
	"github.com/riverqueue/river"

	"riverjobs/jobs"
	"riverjobs/mail"
	"riverjobs/schedule"
	"riverjobs/search"
	"riverjobs/store"
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
	river.AddWorker(workers, &jobs.AuditWorker{Store: store.New(nil)})
	river.AddWorker(workers, &jobs.AlertWorker{})
	river.AddWorker(workers, &schedule.AuditAllWorker{})
	river.AddWorker(workers, &schedule.AlertAllWorker{})
	river.AddWorker(workers, &jobs.WelcomeWorker{Mailer: mail.SMTP{Addr: "relay:25"}})
	river.AddWorker(workers, &schedule.WelcomeAllWorker{})
	river.AddWorker(workers, &jobs.CloseWorker{OnClose: mail.Closed})
	river.AddWorker(workers, &schedule.CloseAllWorker{})
	river.AddWorker(workers, &jobs.IndexWorker{Indexer: search.New()})
	river.AddWorker(workers, &jobs.ReadyWorker{Notifier: mail.Digest{To: "ops@example.com"}})
	river.AddWorker(workers, &schedule.PublishDocWorker{})
}

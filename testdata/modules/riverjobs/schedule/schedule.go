// Package schedule holds the periodic workers that fan out one job per item to the
// workers of package jobs.
package schedule

import (
	"context"

	"github.com/riverqueue/river"

	"riverjobs/jobs"
)

// RefreshAllArgs is the periodic job that refreshes every extension.
type RefreshAllArgs struct{}

func (RefreshAllArgs) Kind() string { return "refresh_all" }

// RefreshAllWorker inserts one refresh job per extension, a batch built in a loop: the
// refresh worker upserts, so a repeated batch only refreshes again.
type RefreshAllWorker struct {
	river.WorkerDefaults[RefreshAllArgs]
	Client *river.Client[any]
	Names  []string
}

func (w *RefreshAllWorker) Work(ctx context.Context, job *river.Job[RefreshAllArgs]) error {
	batch := []river.InsertManyParams{}
	for _, name := range w.Names {
		batch = append(batch, river.InsertManyParams{
			Args:       jobs.RefreshArgs{Name: name},
			InsertOpts: &river.InsertOpts{Queue: "stats"},
		})
	}
	_, err := w.Client.InsertMany(ctx, batch)
	return err
}

// NotifyAllArgs is the periodic job that notifies every user.
type NotifyAllArgs struct {
	UserIDs []string `json:"user_ids"`
}

func (NotifyAllArgs) Kind() string { return "notify_all" }

// NotifyAllWorker inserts one notify job per user: the notify worker inserts a row each
// time, so a repeated fan-out notifies twice.
type NotifyAllWorker struct {
	river.WorkerDefaults[NotifyAllArgs]
	Client *river.Client[any]
}

func (w *NotifyAllWorker) Work(ctx context.Context, job *river.Job[NotifyAllArgs]) error {
	for _, id := range job.Args.UserIDs {
		if _, err := w.Client.Insert(ctx, jobs.NotifyArgs{UserID: id}, nil); err != nil {
			return err
		}
	}
	return nil
}

// MixedArgs is a job that inserts a batch of two kinds.
type MixedArgs struct{}

func (MixedArgs) Kind() string { return "mixed" }

// MixedWorker inserts a refresh and a notification in one batch: the batch has no one
// type, and is judged as a batch to unknown consumers.
type MixedWorker struct {
	river.WorkerDefaults[MixedArgs]
	Client *river.Client[any]
}

func (w *MixedWorker) Work(ctx context.Context, job *river.Job[MixedArgs]) error {
	_, err := w.Client.InsertMany(ctx, []river.InsertManyParams{
		{Args: jobs.RefreshArgs{Name: "all"}},
		{Args: jobs.NotifyArgs{UserID: "admin"}},
	})
	return err
}

// Enqueuer wraps the River client, as services do, for any job's args: each caller's args
// type routes its job to a worker.
type Enqueuer struct{ Client *river.Client[any] }

func (q Enqueuer) Enqueue(ctx context.Context, args river.JobArgs) error {
	_, err := q.Client.Insert(ctx, args, nil)
	return err
}

// RefreshOneArgs asks for one extension to be refreshed through the wrapper.
type RefreshOneArgs struct {
	Name string `json:"name"`
}

func (RefreshOneArgs) Kind() string { return "refresh_one" }

// RefreshOneWorker enqueues a refresh through the wrapper: the refresh worker upserts, so
// a repeated enqueue only refreshes again.
type RefreshOneWorker struct {
	river.WorkerDefaults[RefreshOneArgs]
	Queue Enqueuer
}

func (w *RefreshOneWorker) Work(ctx context.Context, job *river.Job[RefreshOneArgs]) error {
	return w.Queue.Enqueue(ctx, jobs.RefreshArgs{Name: job.Args.Name})
}

// NotifyOneArgs asks for one user to be notified through the wrapper.
type NotifyOneArgs struct {
	UserID string `json:"user_id"`
}

func (NotifyOneArgs) Kind() string { return "notify_one" }

// NotifyOneWorker enqueues a notification through the wrapper: the notify worker inserts a
// row each time, so a repeated enqueue notifies twice.
type NotifyOneWorker struct {
	river.WorkerDefaults[NotifyOneArgs]
	Queue Enqueuer
}

func (w *NotifyOneWorker) Work(ctx context.Context, job *river.Job[NotifyOneArgs]) error {
	return w.Queue.Enqueue(ctx, jobs.NotifyArgs{UserID: job.Args.UserID})
}

// AuditAllArgs is the periodic job that audits every record.
type AuditAllArgs struct {
	IDs []string `json:"ids"`
}

func (AuditAllArgs) Kind() string { return "audit_all" }

// AuditAllWorker inserts one audit job per record: the audit worker only reads (through the
// Store interface), so a repeated fan-out audits again.
type AuditAllWorker struct {
	river.WorkerDefaults[AuditAllArgs]
	Client *river.Client[any]
}

func (w *AuditAllWorker) Work(ctx context.Context, job *river.Job[AuditAllArgs]) error {
	for _, id := range job.Args.IDs {
		if _, err := w.Client.Insert(ctx, jobs.AuditArgs{ID: id}, nil); err != nil {
			return err
		}
	}
	return nil
}

// AlertAllArgs is the periodic job that raises an alert.
type AlertAllArgs struct{}

func (AlertAllArgs) Kind() string { return "alert_all" }

// AlertAllWorker inserts an alert job, whose worker calls an interface with no
// implementation in the program: not known to be safe, so the insert stays reported.
type AlertAllWorker struct {
	river.WorkerDefaults[AlertAllArgs]
	Client *river.Client[any]
}

func (w *AlertAllWorker) Work(ctx context.Context, job *river.Job[AlertAllArgs]) error {
	_, err := w.Client.Insert(ctx, jobs.AlertArgs{Msg: "daily"}, nil)
	return err
}

// WelcomeAllArgs is the job that welcomes the day's sign-ups.
type WelcomeAllArgs struct {
	To []string `json:"to"`
}

func (WelcomeAllArgs) Kind() string { return "welcome_all" }

// WelcomeAllWorker inserts a welcome job per sign-up, whose worker mails: reported.
type WelcomeAllWorker struct {
	river.WorkerDefaults[WelcomeAllArgs]
	Client *river.Client[any]
}

func (w *WelcomeAllWorker) Work(ctx context.Context, job *river.Job[WelcomeAllArgs]) error {
	for _, to := range job.Args.To {
		if _, err := w.Client.Insert(ctx, jobs.WelcomeArgs{To: to}, nil); err != nil {
			return err
		}
	}
	return nil
}

// CloseAllArgs is the job that closes the day's records.
type CloseAllArgs struct {
	IDs []string `json:"ids"`
}

func (CloseAllArgs) Kind() string { return "close_all" }

// CloseAllWorker inserts a close job per record, whose worker runs a hook not known here:
// reported.
type CloseAllWorker struct {
	river.WorkerDefaults[CloseAllArgs]
	Client *river.Client[any]
}

func (w *CloseAllWorker) Work(ctx context.Context, job *river.Job[CloseAllArgs]) error {
	for _, id := range job.Args.IDs {
		if _, err := w.Client.Insert(ctx, jobs.CloseArgs{ID: id}, nil); err != nil {
			return err
		}
	}
	return nil
}

// PublishDocArgs is the job that indexes a document and tells that it is ready.
type PublishDocArgs struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

func (PublishDocArgs) Kind() string { return "publish_doc" }

// PublishDocWorker inserts an index job, whose worker is safe to repeat (protected), and a
// ready job, whose worker mails (reported).
type PublishDocWorker struct {
	river.WorkerDefaults[PublishDocArgs]
	Client *river.Client[any]
}

func (w *PublishDocWorker) Work(ctx context.Context, job *river.Job[PublishDocArgs]) error {
	if _, err := w.Client.Insert(ctx, jobs.IndexArgs{ID: job.Args.ID, Text: job.Args.Text}, nil); err != nil {
		return err
	}
	_, err := w.Client.Insert(ctx, jobs.ReadyArgs{ID: job.Args.ID}, nil)
	return err
}

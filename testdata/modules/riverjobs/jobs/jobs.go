// Package jobs declares the service's River jobs and their workers: a refresh that upserts
// (safe to run again on the same job) and a notification that inserts a row each time.
package jobs

import (
	"context"
	"database/sql"

	"github.com/riverqueue/river"

	"riverjobs/store"
)

var db *sql.DB

// RefreshArgs asks for one extension's stats to be refreshed.
type RefreshArgs struct {
	Name string `json:"name"`
}

func (RefreshArgs) Kind() string { return "refresh" }

// RefreshWorker upserts the stats: a repeat converges.
type RefreshWorker struct {
	river.WorkerDefaults[RefreshArgs]
}

func (w *RefreshWorker) Work(ctx context.Context, job *river.Job[RefreshArgs]) error {
	_, err := db.ExecContext(ctx, `INSERT INTO stats (name, installs) VALUES ($1, 0)
		ON CONFLICT (name) DO UPDATE SET installs = EXCLUDED.installs`, job.Args.Name)
	return err
}

// NotifyArgs asks for a user to be notified.
type NotifyArgs struct {
	UserID string `json:"user_id"`
}

func (NotifyArgs) Kind() string { return "notify" }

// NotifyWorker inserts a notification row: a repeat adds another.
type NotifyWorker struct {
	river.WorkerDefaults[NotifyArgs]
}

func (w *NotifyWorker) Work(ctx context.Context, job *river.Job[NotifyArgs]) error {
	_, err := db.ExecContext(ctx, `INSERT INTO notifications (user_id) VALUES ($1)`, job.Args.UserID)
	return err
}

// AuditArgs asks for one record's status to be checked.
type AuditArgs struct {
	ID string `json:"id"`
}

func (AuditArgs) Kind() string { return "audit" }

// AuditWorker reads a status through the Store interface, whose one implementation (beside
// it, in package store) has no effects: a repeat only reads again.
type AuditWorker struct {
	river.WorkerDefaults[AuditArgs]
	Store store.Store
}

func (w *AuditWorker) Work(ctx context.Context, job *river.Job[AuditArgs]) error {
	if err := w.Store.Pool().PingContext(ctx); err != nil {
		return err
	}
	_, err := w.Store.Status(ctx, job.Args.ID)
	return err
}

// AlertArgs asks for an alert to be raised.
type AlertArgs struct {
	Msg string `json:"msg"`
}

func (AlertArgs) Kind() string { return "alert" }

// AlertWorker calls an interface nothing in the program implements: what runs there is
// not known, so the worker is not known to be safe to run again.
type AlertWorker struct {
	river.WorkerDefaults[AlertArgs]
	Alerter store.Alerter
}

func (w *AlertWorker) Work(ctx context.Context, job *river.Job[AlertArgs]) error {
	return w.Alerter.Alert(ctx, job.Args.Msg)
}

// WelcomeArgs asks for a welcome mail.
type WelcomeArgs struct {
	To string `json:"to"`
}

func (WelcomeArgs) Kind() string { return "welcome" }

// WelcomeWorker mails through the Mailer interface: a do-nothing implementation sits beside
// it, the one main wires sends, so a repeat mails twice.
type WelcomeWorker struct {
	river.WorkerDefaults[WelcomeArgs]
	Mailer store.Mailer
}

func (w *WelcomeWorker) Work(ctx context.Context, job *river.Job[WelcomeArgs]) error {
	return w.Mailer.Send(job.Args.To, "welcome")
}

// CloseArgs asks for a record to be closed.
type CloseArgs struct {
	ID string `json:"id"`
}

func (CloseArgs) Kind() string { return "close" }

// CloseWorker runs the hook main gives it, a function value of a type of the module's own:
// what it does is not known here, so the worker is not known to be safe to run again.
type CloseWorker struct {
	river.WorkerDefaults[CloseArgs]
	OnClose store.Hook
}

func (w *CloseWorker) Work(ctx context.Context, job *river.Job[CloseArgs]) error {
	return w.OnClose(ctx, job.Args.ID)
}

// Indexer indexes a document; main wires the search package's, which this package does not
// import.
type Indexer interface {
	IndexDocument(ctx context.Context, id, text string) error
}

// IndexArgs asks for a document to be indexed.
type IndexArgs struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

func (IndexArgs) Kind() string { return "index" }

// IndexWorker indexes through the interface: the one implementation in the program has no
// effects, so a repeat indexes again.
type IndexWorker struct {
	river.WorkerDefaults[IndexArgs]
	Indexer Indexer
}

func (w *IndexWorker) Work(ctx context.Context, job *river.Job[IndexArgs]) error {
	return w.Indexer.IndexDocument(ctx, job.Args.ID, job.Args.Text)
}

// ReadyNotifier tells that a document is ready; main wires the mail package's.
type ReadyNotifier interface {
	DocumentReady(ctx context.Context, id string) error
}

// ReadyArgs asks for a document's readiness to be told.
type ReadyArgs struct {
	ID string `json:"id"`
}

func (ReadyArgs) Kind() string { return "ready" }

// ReadyWorker notifies through the interface: the implementation main wires mails, so a
// repeat mails twice.
type ReadyWorker struct {
	river.WorkerDefaults[ReadyArgs]
	Notifier ReadyNotifier
}

func (w *ReadyWorker) Work(ctx context.Context, job *river.Job[ReadyArgs]) error {
	return w.Notifier.DocumentReady(ctx, job.Args.ID)
}

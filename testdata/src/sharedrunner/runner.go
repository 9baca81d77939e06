// Package sharedrunner holds workers that hand their work to one shared runner as a closure, // want package:"has effects"
// in a struct field or a parameter: each worker's effects are those of its own closure.
package sharedrunner

import (
	"context"
	"database/sql"
	"net/smtp"

	"github.com/riverqueue/river"
)

var db *sql.DB

type runConfig struct {
	name string
	work func(ctx context.Context) error
}

// runWork is the shared runner: it logs, times and calls the work it is given.
func runWork(ctx context.Context, c runConfig) error {
	if c.name == "" {
		return nil
	}
	return c.work(ctx)
}

// runFunc is the same runner with the work as a parameter.
func runFunc(ctx context.Context, name string, work func(ctx context.Context) error) error {
	if name == "" {
		return nil
	}
	return work(ctx)
}

type MailArgs struct{ To string }

func (MailArgs) Kind() string { return "mail" }

type MailWorker struct {
	river.WorkerDefaults[MailArgs]
}

func (w *MailWorker) Work(ctx context.Context, job *river.Job[MailArgs]) error { // want Work:`effects email.send:unprotected\(smtp.SendMail\)`
	return runWork(ctx, runConfig{name: "mail", work: func(ctx context.Context) error { // want `^handler \(\*MailWorker\).Work: email sent with no deduplication \(\(\*MailWorker\).Work -> sharedrunner.runWork -> func literal in \(\*MailWorker\).Work -> smtp.SendMail\); missing: key, enforcement$`
		return smtp.SendMail("localhost:25", nil, "a@example.com", []string{job.Args.To}, []byte("hi"))
	}})
}

type LedgerArgs struct{ ID string }

func (LedgerArgs) Kind() string { return "ledger" }

type LedgerWorker struct {
	river.WorkerDefaults[LedgerArgs]
}

func (w *LedgerWorker) Work(ctx context.Context, job *river.Job[LedgerArgs]) error { // want Work:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	// The closure is written before the call, in a variable: it enters the handler
	// where it is written (the shorter chain), and only its own effect does.
	c := runConfig{name: "ledger", work: func(ctx context.Context) error { // want `^handler \(\*LedgerWorker\).Work: SQL write not safe to repeat: INSERT without conflict handling \(\(\*LedgerWorker\).Work -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
		_, err := db.ExecContext(ctx, "INSERT INTO ledger (id) VALUES ($1)", job.Args.ID)
		return err
	}}
	return runWork(ctx, c)
}

type MailFnArgs struct{ To string }

func (MailFnArgs) Kind() string { return "mailfn" }

type MailFnWorker struct {
	river.WorkerDefaults[MailFnArgs]
}

func (w *MailFnWorker) Work(ctx context.Context, job *river.Job[MailFnArgs]) error { // want Work:`effects email.send:unprotected\(smtp.SendMail\)`
	return runFunc(ctx, "mail", func(ctx context.Context) error { // want `^handler \(\*MailFnWorker\).Work: email sent with no deduplication \(\(\*MailFnWorker\).Work -> sharedrunner.runFunc -> func literal in \(\*MailFnWorker\).Work -> smtp.SendMail\); missing: key, enforcement$`
		return smtp.SendMail("localhost:25", nil, "a@example.com", []string{job.Args.To}, []byte("hi"))
	})
}

type LedgerFnArgs struct{ ID string }

func (LedgerFnArgs) Kind() string { return "ledgerfn" }

type LedgerFnWorker struct {
	river.WorkerDefaults[LedgerFnArgs]
}

func (w *LedgerFnWorker) Work(ctx context.Context, job *river.Job[LedgerFnArgs]) error { // want Work:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	return runFunc(ctx, "ledger", func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, "INSERT INTO ledger (id) VALUES ($1) ON CONFLICT DO NOTHING", job.Args.ID)
		return err
	})
}

// RunExported is a runner other packages may call: the values they put in the field are out
// of view, so a call of its field runs what the package stores there (here, the closures of
// Mail and Ledger above), as before.
func RunExported(ctx context.Context, c runConfig) error { // want RunExported:`effects email.send:unprotected\(smtp.SendMail\) sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return c.work(ctx)
}

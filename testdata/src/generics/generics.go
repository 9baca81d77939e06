// Package generics: effects of generic functions and methods reach callers through // want package:"has effects"
// instantiations.
package generics

import (
	"context"
	"database/sql"

	"github.com/riverqueue/river"
)

var db *sql.DB

type Repo[T any] struct{ table string }

func (r *Repo[T]) Insert(ctx context.Context, v T) error { // want Insert:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO items (v) VALUES ($1)", v)
	return err
}

func Save[T any](ctx context.Context, v T) error { // want Save:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return (&Repo[T]{}).Insert(ctx, v)
}

type ImportArgs struct{}

func (ImportArgs) Kind() string { return "import" }

type ImportWorker struct {
	river.WorkerDefaults[ImportArgs]
}

func (w *ImportWorker) Work(ctx context.Context, job *river.Job[ImportArgs]) error { // want Work:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return Save(ctx, job.Args) // want `handler \(\*ImportWorker\).Work: SQL write not safe to repeat: INSERT without conflict handling \(\(\*ImportWorker\).Work -> generics.Save -> \(\*generics.Repo\).Insert -> \(\*sql.DB\).ExecContext\)`
}

// Package tasksdb is query code in the shape sqlc generates: a Queries value over a pool // want package:"has effects"
// or, made WithTx, over a transaction, whose LockTask reads a task FOR UPDATE.
package tasksdb

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DBTX is what Queries runs its statements on.
type DBTX interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Queries runs the package's statements.
type Queries struct {
	db DBTX
}

// New returns the queries over db.
func New(db DBTX) *Queries { return &Queries{db: db} }

// WithTx returns the queries over tx.
func (q *Queries) WithTx(tx pgx.Tx) *Queries { return &Queries{db: tx} }

// Task is a row of tasks.
type Task struct {
	ID       string
	Status   string
	Attempts int32
}

const lockTask = `SELECT id, status, attempts FROM tasks WHERE id = $1 FOR UPDATE`

// LockTask reads the task and locks it until the transaction ends.
func (q *Queries) LockTask(ctx context.Context, id string) (Task, error) { // want LockTask:`locks\(result 0\)`
	row := q.db.QueryRow(ctx, lockTask, id)
	var i Task
	err := row.Scan(&i.ID, &i.Status, &i.Attempts)
	return i, err
}

// LockTaskBy reads the task by a key of any type on db and locks it until the transaction
// ends.
func LockTaskBy(ctx context.Context, key any, db DBTX) (Task, error) { // want LockTaskBy:`locks\(result 0\)`
	row := db.QueryRow(ctx, lockTask, key)
	var i Task
	err := row.Scan(&i.ID, &i.Status, &i.Attempts)
	return i, err
}

// InsertTaskLog adds a log line for the task: a new row on every call.
func (q *Queries) InsertTaskLog(ctx context.Context, id string) error { // want InsertTaskLog:`effects sql.write:unprotected\(\(tasksdb.DBTX\).Exec\)`
	_, err := q.db.Exec(ctx, `INSERT INTO task_log (task_id, line) VALUES ($1, 'finished')`, id)
	return err
}

// SetTaskStatus sets the task's status.
func (q *Queries) SetTaskStatus(ctx context.Context, id, status string) error { // want SetTaskStatus:`effects sql.write:protected\(\(tasksdb.DBTX\).Exec\)`
	_, err := q.db.Exec(ctx, `UPDATE tasks SET status = $2 WHERE id = $1`, id, status)
	return err
}

// Store runs queries in a transaction, as sqlc's guides write it.
type Store struct {
	Pool *pgxpool.Pool
}

// ExecTx runs fn with queries over a new transaction, and commits when it returns nil.
func (s *Store) ExecTx(ctx context.Context, fn func(*Queries) error) error { // want ExecTx:`calls-params\(1\)`
	tx, err := s.Pool.Begin(ctx)
	if err != nil {
		return err
	}
	if err := fn(New(tx)); err != nil {
		_ = tx.Rollback(ctx)
		return err
	}
	return tx.Commit(ctx)
}

// NullTaskStatus is a task status that may be null, as sqlc writes a nullable enum.
type NullTaskStatus struct {
	TaskStatus string
	Valid      bool
}

// UpdateTaskParams are UpdateTask's arguments: a field left null keeps its column.
type UpdateTaskParams struct {
	ID      string
	Status  NullTaskStatus
	Retries int
}

// UpdateTask sets the task's columns its params give (COALESCE keeps the others).
func (q *Queries) UpdateTask(ctx context.Context, arg UpdateTaskParams) error { // want UpdateTask:`effects sql.write:protected\(\(tasksdb.DBTX\).Exec\)`
	_, err := q.db.Exec(ctx, `UPDATE tasks SET status = COALESCE($2, status), retries = $3 WHERE id = $1`, arg.ID, arg.Status, arg.Retries)
	return err
}

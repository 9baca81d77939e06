// Package params locks a task in a store's transaction, checks its status, and writes the // want package:"has effects"
// status with a query given its parameters in a struct (sqlc's UpdateTaskParams), after
// the effect: the order in the transaction does not matter, the write does.
package params

import (
	"context"

	"github.com/hibiken/asynq"

	"lockhelpers/tasksdb"
)

var tasks *tasksdb.Store

// Finish logs and marks the task done in one transaction, the status set through the
// params' nullable field after the log line: a redelivery finds it done.
func Finish(ctx context.Context, t *asynq.Task) error { // want Finish:`effects sql.write:protected\(\(tasksdb.DBTX\).Exec\)`
	id := string(t.Payload())
	return tasks.ExecTx(ctx, func(q *tasksdb.Queries) error {
		task, err := q.LockTask(ctx, id)
		if err != nil {
			return err
		}
		if task.Status == "done" {
			return nil
		}
		if err := q.InsertTaskLog(ctx, id); err != nil {
			return err
		}
		return q.UpdateTask(ctx, tasksdb.UpdateTaskParams{ID: id, Status: tasksdb.NullTaskStatus{TaskStatus: "done", Valid: true}})
	})
}

// FinishCounted writes only a retry count through the params: the status the check reads
// is never written, so every delivery logs again.
func FinishCounted(ctx context.Context, t *asynq.Task) error { // want FinishCounted:`effects sql.write:unprotected\(\(tasksdb.DBTX\).Exec\)`
	id := string(t.Payload())
	return tasks.ExecTx(ctx, func(q *tasksdb.Queries) error { // want `handler FinishCounted: SQL write not safe to repeat: INSERT without conflict handling`
		task, err := q.LockTask(ctx, id)
		if err != nil {
			return err
		}
		if task.Status == "done" {
			return nil
		}
		if err := q.InsertTaskLog(ctx, id); err != nil {
			return err
		}
		return q.UpdateTask(ctx, tasksdb.UpdateTaskParams{ID: id, Retries: 1})
	})
}

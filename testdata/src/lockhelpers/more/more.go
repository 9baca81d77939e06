// Package more holds more of lockhelpers' cases, apart so that each package's facts stay // want package:"has effects"
// within their budget: a helper that returns a view of the row it locked, a write of an
// attempt counter that is not the state the check reads, and the literal a store runs in its
// transaction with sqlc's New(tx).
package more

import (
	"context"
	"time"

	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jmoiron/sqlx"

	"lockhelpers/store"
	"lockhelpers/tasksdb"
)

var (
	db    *sqlx.DB
	pool  *pgxpool.Pool
	repo  = &store.Store{}
	tasks = &tasksdb.Store{Pool: pool}
)

// SignViewed locks the row through a helper that returns a view of it.
func SignViewed(ctx context.Context, t *asynq.Task) error { // want SignViewed:`effects sql.write:protected\(\(\*sql.Tx\).ExecContext\)`
	id := string(t.Payload())
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	v, err := repo.OutboxViewForUpdate(ctx, tx, id)
	if err != nil {
		return err
	}
	if v.Done {
		return nil
	}
	if err := repo.InsertCredentials(ctx, tx, id); err != nil {
		return err
	}
	if err := repo.UpdateOutboxCompleted(ctx, tx, id, time.Now()); err != nil {
		return err
	}
	return tx.Commit()
}

// SignRetried locks and checks the row, but what it writes of it is an attempt counter,
// not the state the check reads: a redelivery after the commit adds the credentials again.
func SignRetried(ctx context.Context, t *asynq.Task) error { // want SignRetried:`effects sql.write:unprotected\(\(\*sql.Tx\).ExecContext\)`
	id := string(t.Payload())
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	o, err := repo.OutboxForUpdate(ctx, tx, id)
	if err != nil {
		return err
	}
	if o.CompletedAt != nil {
		return nil
	}
	if err := repo.InsertCredentials(ctx, tx, id); err != nil { // want `handler SignRetried: SQL write not safe to repeat: INSERT without conflict handling`
		return err
	}
	if err := repo.UpdateRetryCount(ctx, tx, id); err != nil {
		return err
	}
	return tx.Commit()
}

// FinishInStore locks the task inside the literal a store runs in its transaction.
func FinishInStore(ctx context.Context, t *asynq.Task) error { // want FinishInStore:`effects sql.write:protected\(\(tasksdb.DBTX\).Exec\)`
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
		return q.SetTaskStatus(ctx, id, "done")
	})
}

// StartInStore leaves on a finished task, but writes only that it is running: the next
// delivery finds it running, passes the check again, and adds the log line again.
func StartInStore(ctx context.Context, t *asynq.Task) error { // want StartInStore:`effects sql.write:unprotected\(\(tasksdb.DBTX\).Exec\)`
	id := string(t.Payload())
	return tasks.ExecTx(ctx, func(q *tasksdb.Queries) error { // want `handler StartInStore: SQL write not safe to repeat: INSERT without conflict handling`
		task, err := q.LockTask(ctx, id)
		if err != nil {
			return err
		}
		switch task.Status {
		case "done", "failed":
			return nil
		}
		if err := q.SetTaskStatus(ctx, id, "running"); err != nil {
			return err
		}
		return q.InsertTaskLog(ctx, id)
	})
}

// RetryInStore leaves once the task has used its attempts, and counts one more: a budget,
// not a state; the next delivery passes the check again and adds the log line again.
func RetryInStore(ctx context.Context, t *asynq.Task) error { // want RetryInStore:`effects sql.write:unprotected\(\(tasksdb.DBTX\).Exec\)`
	id := string(t.Payload())
	return tasks.ExecTx(ctx, func(q *tasksdb.Queries) error { // want `handler RetryInStore: SQL write not safe to repeat: INSERT without conflict handling`
		task, err := q.LockTask(ctx, id)
		if err != nil {
			return err
		}
		if int(task.Attempts) >= 5 {
			return nil
		}
		if err := q.SetTaskStatus(ctx, id, "running"); err != nil {
			return err
		}
		return q.InsertTaskLog(ctx, id)
	})
}

// FinishInStoreUnchecked never checks the task it locked: the log line is added on every
// delivery.
func FinishInStoreUnchecked(ctx context.Context, t *asynq.Task) error { // want FinishInStoreUnchecked:`effects sql.write:unprotected\(\(tasksdb.DBTX\).Exec\)`
	id := string(t.Payload())
	return tasks.ExecTx(ctx, func(q *tasksdb.Queries) error { // want `handler FinishInStoreUnchecked: SQL write not safe to repeat: INSERT without conflict handling \(FinishInStoreUnchecked -> \(\*tasksdb.Store\).ExecTx -> func literal in FinishInStoreUnchecked -> \(\*tasksdb.Queries\).InsertTaskLog -> \(tasksdb.DBTX\).Exec\)`
		if _, err := q.LockTask(ctx, id); err != nil {
			return err
		}
		if err := q.InsertTaskLog(ctx, id); err != nil {
			return err
		}
		return q.SetTaskStatus(ctx, id, "done")
	})
}

// FinishByKey locks the task through a helper whose key parameter is of any type, given
// before the handle the lock is on.
func FinishByKey(ctx context.Context, t *asynq.Task) error { // want FinishByKey:`effects sql.write:protected\(\(tasksdb.DBTX\).Exec\)`
	id := string(t.Payload())
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	task, err := tasksdb.LockTaskBy(ctx, id, tx)
	if err != nil {
		return err
	}
	if task.Status == "done" {
		return nil
	}
	q := tasksdb.New(tx)
	if err := q.InsertTaskLog(ctx, id); err != nil {
		return err
	}
	if err := q.SetTaskStatus(ctx, id, "done"); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("finish:key", FinishByKey)
	mux.HandleFunc("sign:viewed", SignViewed)
	mux.HandleFunc("sign:retried", SignRetried)
	mux.HandleFunc("finish:store", FinishInStore)
	mux.HandleFunc("finish:store:unchecked", FinishInStoreUnchecked)
}

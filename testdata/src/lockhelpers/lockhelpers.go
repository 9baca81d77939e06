// Package lockhelpers exercises rows locked FOR UPDATE by a helper in another package: the
// helper returns the row it read on the transaction its caller passed, the caller returns on
// the state it read, and writes that state on the same transaction (a helper whose name says
// it marks the job, given the job's key). What commits with the transaction is safe. The
// same work after a read that does not lock, after a locking read on the pool, or without
// the state written, stays reported.
package lockhelpers

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
	db   *sqlx.DB
	pool *pgxpool.Pool
	repo = &store.Store{}
)

// Sign locks the request's outbox row, returns when it is gone or done, and adds the
// credentials and marks the request done in the same transaction.
func Sign(ctx context.Context, t *asynq.Task) error { // want Sign:`effects sql.write:protected\(\(\*sql.Tx\).ExecContext\)`
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
	if o == nil || o.CompletedAt != nil {
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

// SignThroughWrapper locks the row through a helper that forwards the locking read's
// result: the same gate as Sign's.
func SignThroughWrapper(ctx context.Context, t *asynq.Task) error { // want SignThroughWrapper:`effects sql.write:protected\(\(\*sql.Tx\).ExecContext\)`
	id := string(t.Payload())
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	o, err := repo.LockOutbox(ctx, id, tx)
	if err != nil {
		return err
	}
	if o.CompletedAt != nil {
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

// SignOnPool makes the locking read on the pool: the lock ends with the statement, two
// deliveries both read the row not done.
func SignOnPool(ctx context.Context, t *asynq.Task) error { // want SignOnPool:`effects sql.write:unprotected\(\(\*sql.Tx\).ExecContext\)`
	id := string(t.Payload())
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	o, err := repo.OutboxForUpdate(ctx, db, id)
	if err != nil {
		return err
	}
	if o == nil || o.CompletedAt != nil {
		return nil
	}
	if err := repo.InsertCredentials(ctx, tx, id); err != nil { // want `handler SignOnPool: SQL write not safe to repeat: INSERT without conflict handling \(SignOnPool -> \(\*store.Store\).InsertCredentials -> \(\*sql.Tx\).ExecContext\); 2 other handlers reach it too, through \(\*store.Store\).InsertCredentials; missing: key, enforcement$`
		return err
	}
	if err := repo.UpdateOutboxCompleted(ctx, tx, id, time.Now()); err != nil {
		return err
	}
	return tx.Commit()
}

// SignUnlocked reads the row without locking it: two deliveries at once both find it not
// done and both add the credentials.
func SignUnlocked(ctx context.Context, t *asynq.Task) error { // want SignUnlocked:`effects sql.write:unprotected\(\(\*sql.Tx\).ExecContext\)`
	id := string(t.Payload())
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	o, err := repo.Outbox(ctx, tx, id)
	if err != nil {
		return err
	}
	if o == nil || o.CompletedAt != nil {
		return nil
	}
	if err := repo.InsertCredentials(ctx, tx, id); err != nil { // want `handler SignUnlocked: SQL write not safe to repeat: INSERT without conflict handling \(SignUnlocked -> \(\*store.Store\).InsertCredentials -> \(\*sql.Tx\).ExecContext\); 2 other handlers reach it too, through \(\*store.Store\).InsertCredentials; missing: key, enforcement$`
		return err
	}
	if err := repo.UpdateOutboxCompleted(ctx, tx, id, time.Now()); err != nil {
		return err
	}
	return tx.Commit()
}

// SignUnmarked locks and checks the row but never marks it done: a redelivery after the
// commit finds it as it was and adds the credentials again.
func SignUnmarked(ctx context.Context, t *asynq.Task) error { // want SignUnmarked:`effects sql.write:unprotected\(\(\*sql.Tx\).ExecContext\)`
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
	if o == nil || o.CompletedAt != nil {
		return nil
	}
	if err := repo.InsertCredentials(ctx, tx, id); err != nil { // want `handler SignUnmarked: SQL write not safe to repeat: INSERT without conflict handling \(SignUnmarked -> \(\*store.Store\).InsertCredentials -> \(\*sql.Tx\).ExecContext\); 2 other handlers reach it too, through \(\*store.Store\).InsertCredentials; missing: key, enforcement$`
		return err
	}
	return tx.Commit()
}

// Finish locks the task through queries made WithTx, returns when it is done, and logs
// and sets its status on the same transaction.
func Finish(ctx context.Context, t *asynq.Task) error { // want Finish:`effects sql.write:protected\(\(tasksdb.DBTX\).Exec\)`
	id := string(t.Payload())
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	q := tasksdb.New(pool).WithTx(tx)
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
	if err := q.SetTaskStatus(ctx, id, "done"); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// FinishOutsideTx locks the task through queries over the pool: no transaction holds the
// lock, and the log line is added on every delivery.
func FinishOutsideTx(ctx context.Context, t *asynq.Task) error { // want FinishOutsideTx:`effects sql.write:unprotected\(\(tasksdb.DBTX\).Exec\)`
	id := string(t.Payload())
	q := tasksdb.New(pool)
	task, err := q.LockTask(ctx, id)
	if err != nil {
		return err
	}
	if task.Status == "done" {
		return nil
	}
	if err := q.InsertTaskLog(ctx, id); err != nil { // want `handler FinishOutsideTx: SQL write not safe to repeat: INSERT without conflict handling \(FinishOutsideTx -> \(\*tasksdb.Queries\).InsertTaskLog -> \(tasksdb.DBTX\).Exec\); missing: key, enforcement$`
		return err
	}
	return q.SetTaskStatus(ctx, id, "done")
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("sign", Sign)
	mux.HandleFunc("sign:wrapped", SignThroughWrapper)
	mux.HandleFunc("sign:interface", SignThroughInterface)
	mux.HandleFunc("sign:pool", SignOnPool)
	mux.HandleFunc("sign:unlocked", SignUnlocked)
	mux.HandleFunc("sign:unmarked", SignUnmarked)
	mux.HandleFunc("finish", Finish)
	mux.HandleFunc("finish:outside", FinishOutsideTx)
}

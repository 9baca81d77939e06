// Package insertcounts holds River workers that count the jobs they insert, in the branch // want package:"has effects" package:`retries .*ScanArgs=unique}`
// a unique insert runs only when it was not skipped as a duplicate; and twins that count
// on every run, or do more than count there.
package insertcounts

import (
	"bytes"
	"context"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
)

// ScanArgs is unique by its args: a second insert of the same library's scan is skipped.
type ScanArgs struct{ LibraryID int64 }

func (ScanArgs) Kind() string { return "scan" }

func (ScanArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// KickoffArgs starts a library's scan.
type KickoffArgs struct{ LibraryID int64 }

func (KickoffArgs) Kind() string { return "kickoff" }

var (
	rc   *river.Client[pgx.Tx]
	pool interface {
		Begin(ctx context.Context) (pgx.Tx, error)
	}
)

// enqueueScan inserts the scan on the transaction and counts it in the library's burst
// only when River did not skip it as a duplicate: a repeat is skipped, and counts nothing.
func enqueueScan(ctx context.Context, tx pgx.Tx, id int64) error {
	res, err := rc.InsertTx(ctx, tx, ScanArgs{LibraryID: id}, nil)
	if err != nil {
		return err
	}
	if res != nil && !res.UniqueSkippedAsDuplicate {
		_, err = tx.Exec(ctx, `UPDATE scan_bursts SET units_total = units_total + 1 WHERE library_id = $1`, id)
	}
	return err
}

type KickoffWorker struct{}

// Work counts the scans it inserts in the branch River runs for a new job only.
func (KickoffWorker) Work(ctx context.Context, job *river.Job[KickoffArgs]) error { // want Work:`effects publish:protected\(\(\*river.Client\).InsertTx\)`
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := enqueueScan(ctx, tx, job.Args.LibraryID); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// enqueueScanReturning leaves when River skipped the insert, and counts after.
func enqueueScanReturning(ctx context.Context, tx pgx.Tx, id int64) error {
	res, err := rc.InsertTx(ctx, tx, ScanArgs{LibraryID: id}, nil)
	if err != nil {
		return err
	}
	if res.UniqueSkippedAsDuplicate {
		return nil
	}
	_, err = tx.Exec(ctx, `UPDATE scan_bursts SET units_total = units_total + 1 WHERE library_id = $1`, id)
	return err
}

type RescanWorker struct{}

func (RescanWorker) Work(ctx context.Context, job *river.Job[KickoffArgs]) error { // want Work:`effects publish:protected\(\(\*river.Client\).InsertTx\)`
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := enqueueScanReturning(ctx, tx, job.Args.LibraryID); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// enqueueScanCounted counts whether or not River skipped the insert: a repeat counts the
// same scan twice.
func enqueueScanCounted(ctx context.Context, tx pgx.Tx, id int64) error {
	if _, err := rc.InsertTx(ctx, tx, ScanArgs{LibraryID: id}, nil); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `UPDATE scan_bursts SET units_total = units_total + 1 WHERE library_id = $1`, id)
	return err
}

type CountingWorker struct{}

func (CountingWorker) Work(ctx context.Context, job *river.Job[KickoffArgs]) error { // want Work:`effects publish:protected\(\(\*river.Client\).InsertTx\) sql.write:unprotected\(\(pgx.Tx\).Exec\)`
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := enqueueScanCounted(ctx, tx, job.Args.LibraryID); err != nil { // want `handler \(CountingWorker\).Work: SQL write not safe to repeat: relative UPDATE of units_total`
		return err
	}
	return tx.Commit(ctx)
}

// enqueueScanNotifying posts a webhook in the branch: the insert's claim is the
// transaction's until it commits, and a crash before the commit posts again.
func enqueueScanNotifying(ctx context.Context, tx pgx.Tx, id int64) error {
	res, err := rc.InsertTx(ctx, tx, ScanArgs{LibraryID: id}, nil)
	if err != nil {
		return err
	}
	if !res.UniqueSkippedAsDuplicate {
		_, err = http.Post("https://hooks.example.com/scans", "application/json", bytes.NewReader(nil))
	}
	return err
}

type NotifyingWorker struct{}

func (NotifyingWorker) Work(ctx context.Context, job *river.Job[KickoffArgs]) error { // want Work:`effects http.write:unprotected\(http.Post\)`
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if err := enqueueScanNotifying(ctx, tx, job.Args.LibraryID); err != nil { // want `handler \(NotifyingWorker\).Work: HTTP POST without an Idempotency-Key header`
		return err
	}
	return tx.Commit(ctx)
}

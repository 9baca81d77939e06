// Package decisions exercises the checklist decisions: partial and ttl in missing lists, // want package:"has effects" package:`retries river:decisions.ShipArgs=unset`
// declarations that answer them, and declarations the code contradicts.
package decisions

import (
	"context"
	"database/sql"
	"net/smtp"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
	"github.com/hibiken/asynq"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
)

var db *sql.DB

type ChargePayload struct{ OrderID string }

func charge(orderID string) error {
	p := &stripe.PaymentIntentParams{}
	p.SetIdempotencyKey("charge-" + orderID)
	_, err := paymentintent.New(p)
	return err
}

func ledger(ctx context.Context) error {
	_, err := db.ExecContext(ctx, "INSERT INTO ledger (a) VALUES (1)")
	return err
}

func mail() error { return smtp.SendMail("localhost:25", nil, "a@example.com", nil, nil) }

// Payment then database: two systems, one write not safe to repeat.
func PaymentThenDB(ctx context.Context, t *asynq.Task) error { // want PaymentThenDB:`effects payment:protected\(paymentintent.New\) sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if err := charge(t.Type()); err != nil {
		return err
	}
	return ledger(ctx) // want `handler PaymentThenDB: SQL write not safe to repeat: INSERT without conflict handling .*; missing: key, enforcement, partial \(\S.* do not commit together\)$`
}

// One system only: no partial.
func DBOnly(ctx context.Context, t *asynq.Task) error { // want DBOnly:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return ledger(ctx) // want `handler DBOnly: .*; missing: key, enforcement$`
}

// The declaration answers partial; key and enforcement stay open.
//
//idemlint:decisions partial=manual-review -- a failed charge is reconciled by support
func DeclaredPartial(ctx context.Context, t *asynq.Task) error { // want DeclaredPartial:`effects payment:protected\(paymentintent.New\) sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	if err := charge(t.Type()); err != nil {
		return err
	}
	return ledger(ctx) // want `handler DeclaredPartial: .*; missing: key, enforcement$`
}

// Everything answered: nothing reported.
//
//idemlint:decisions key=OrderID enforce=manual-review partial=manual-review -- receipts are reviewed by support
func DeclaredAll(ctx context.Context, t *asynq.Task) error { // want DeclaredAll:`effects email.send:unprotected\(smtp.SendMail\) payment:protected\(paymentintent.New\)`
	var p ChargePayload
	_ = p
	if err := charge(t.Type()); err != nil {
		return err
	}
	return mail()
}

// The code contradicts the declared upsert.
//
//idemlint:decisions key=OrderID enforce=upsert -- the ledger has a unique order id
func Contradicted(ctx context.Context, t *asynq.Task) error { // want Contradicted:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	var p ChargePayload
	_ = p
	return ledger(ctx) // want `handler Contradicted: //idemlint:decisions enforce=upsert contradicts the code: SQL write not safe to repeat: INSERT without conflict handling`
}

// A key that names nothing of the job.
//
//idemlint:decisions key=InvoiceNumber enforce=manual-review -- reviewed // want `key=InvoiceNumber names nothing in BadKey's job`
func BadKey(ctx context.Context, t *asynq.Task) error { // want BadKey:`effects email.send:unprotected\(smtp.SendMail\)`
	return mail()
}

type ShipArgs struct{ ShipmentID string }

func (ShipArgs) Kind() string { return "ship" }

type ShipWorker struct {
	river.WorkerDefaults[ShipArgs]
}

// The job's completion is committed with its database writes: the INSERT on the
// transaction and the job inserted through it are enforced, and there is no partial.
func (w *ShipWorker) Work(ctx context.Context, job *river.Job[ShipArgs]) error { // want Work:`effects payment:protected\(paymentintent.New\) publish:unprotected\(\(\*river.Client\).InsertTx\) sql.write:unprotected\(\(pgx.Tx\).Exec\) completes-in-tx`
	var tx pgx.Tx
	if err := charge(job.Args.ShipmentID); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "INSERT INTO shipments (id) VALUES ($1)", job.Args.ShipmentID); err != nil {
		return err
	}
	if _, err := riverClient.InsertTx(ctx, tx, ShipArgs{}, nil); err != nil {
		return err
	}
	_, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
	return err
}

var (
	riverClient *river.Client[pgx.Tx]
	pool        *pgxpool.Pool
)

type RestockArgs struct{ SKU string }

func (RestockArgs) Kind() string { return "restock" }

type RestockWorker struct {
	river.WorkerDefaults[RestockArgs]
}

// A write on the pool commits on its own, whatever the transaction holding the job's
// completion does; so does a job inserted outside it.
func (w *RestockWorker) Work(ctx context.Context, job *river.Job[RestockArgs]) error { // want Work:`effects publish:unprotected\(\(\*river.Client\).Insert\) sql.write:unprotected\(\(\*pgxpool.Pool\).Exec\) completes-in-tx`
	var tx pgx.Tx
	if _, err := pool.Exec(ctx, "INSERT INTO restocks (sku) VALUES ($1)", job.Args.SKU); err != nil { // want `handler \(\*RestockWorker\).Work: SQL write not safe to repeat: INSERT without conflict handling .*; missing: key, enforcement$`
		return err
	}
	if _, err := riverClient.Insert(ctx, ShipArgs{}, nil); err != nil { // want `handler \(\*RestockWorker\).Work: River job inserted without an idempotency key .*; missing: key, enforcement$`
		return err
	}
	_, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
	return err
}

type NotifyWorker struct {
	river.WorkerDefaults[RestockArgs]
}

// Without the completion in the transaction, a job inserted through it is repeated by a
// retry after the commit.
func (w *NotifyWorker) Work(ctx context.Context, job *river.Job[RestockArgs]) error { // want Work:`effects publish:unprotected\(\(\*river.Client\).InsertTx\)`
	var tx pgx.Tx
	_, err := riverClient.InsertTx(ctx, tx, ShipArgs{}, nil) // want `handler \(\*NotifyWorker\).Work: River job inserted without an idempotency key .*; missing: key, enforcement$`
	return err
}

type OrderJob struct{ OrderID string }

var claims *sqlstore.Store

// ledgerTx writes the ledger row and the job's completion in one transaction.
func ledgerTx(ctx context.Context) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO ledger (a) VALUES (1)"); err != nil {
		return err
	}
	if err := claims.CompleteTx(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

func fulfil(ctx context.Context, job OrderJob) error { // want `handler fulfil: the idempotency middleware wraps it without an explicit completion retention \(WithRetention\); missing: ttl`
	return ledgerTx(ctx)
}

func fulfilKept(ctx context.Context, job OrderJob) error {
	return ledgerTx(ctx)
}

// fulfilAccepted is fulfil with the default retention accepted: an ignore naming the
// decisions category silences that category's finding on the line below.
//
//idemlint:ignore decisions -- the default retention outlasts this job's one-day retries
func fulfilAccepted(ctx context.Context, job OrderJob) error {
	return ledgerTx(ctx)
}

//idemlint:ignore decisions -- nothing of the category here // want `//idemlint:ignore decisions silences nothing here: remove it`
func notAHandler() {}

func Register() error { // want Register:`effects sql.write:unprotected\(\(\*sql.Tx\).ExecContext\) completes-in-tx`
	key := func(j OrderJob) (string, error) { return j.OrderID, nil }
	loose, err := idempotency.New(key)
	if err != nil {
		return err
	}
	_ = loose.Wrap(fulfil)
	_ = loose.Wrap(fulfilAccepted)
	kept, err := idempotency.New(key, idempotency.WithRetention(72*time.Hour))
	if err != nil {
		return err
	}
	_ = kept.Wrap(fulfilKept)
	return nil
}

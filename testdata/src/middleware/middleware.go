// Package middleware: handlers wrapped by idemlint's runtime middleware where they are // want package:"has effects"
// registered. The claim and completion marker enforce the key for the handler's database
// writes when the marker commits with them (sqlstore CompleteTx); otherwise, and for an
// external effect, a crash after the effect repeats it, and is reported as such.
package middleware

import (
	"context"
	"database/sql"
	"net/smtp"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/chokaq/idemlint/idempotency/sqlstore"
	"github.com/hibiken/asynq"
)

var db *sql.DB

type OrderJob struct{ OrderID string }

var claims *sqlstore.Store

// The runtime package's own handler shape: a function wrapped with m.Wrap is a handler. Its
// write and its completion marker commit separately: a crash between them repeats the write.
func fulfil(ctx context.Context, job OrderJob) error {
	_, err := db.ExecContext(ctx, "INSERT INTO shipments (order_id) VALUES ($1)", job.OrderID) // want `handler fulfil: SQL write not safe to repeat: INSERT without conflict handling; the idempotency middleware claims this handler, but a crash between the write and its completion marker repeats it .*; missing: enforcement$`
	return err
}

// The completion marker commits in the write's transaction: enforced.
func fulfilTx(ctx context.Context, job OrderJob) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "INSERT INTO shipments (order_id) VALUES ($1)", job.OrderID); err != nil {
		return err
	}
	if err := claims.CompleteTx(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// The completion commits in the transaction, but the audit row is written on the pool and
// commits on its own: a crash after it and before the transaction's commit repeats it.
func fulfilSplit(ctx context.Context, job OrderJob) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := db.ExecContext(ctx, "INSERT INTO audit (order_id) VALUES ($1)", job.OrderID); err != nil { // want `handler fulfilSplit: SQL write not safe to repeat: INSERT without conflict handling; the idempotency middleware claims this handler, but the write commits outside the transaction that stores the completion, so a crash between them repeats it .*; missing: enforcement$`
		return err
	}
	if err := claims.CompleteTx(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

func notify(ctx context.Context, job OrderJob) error {
	return smtp.SendMail("localhost:25", nil, "shop@example.com", nil, nil) // want `handler notify: email sent with no deduplication; the idempotency middleware claims this handler, but a crash after the external effect repeats it .*; missing: enforcement$`
}

func Register(mux *asynq.ServeMux) error { // want Register:`effects email.send:unprotected\(smtp.SendMail\) sql.write:unprotected\(\(\*sql.DB\).ExecContext\) completes-in-tx`
	m, err := idempotency.New(func(j OrderJob) (string, error) { return j.OrderID, nil }, idempotency.WithRetention(72*time.Hour))
	if err != nil {
		return err
	}
	_ = m.Wrap(fulfil)
	_ = m.Wrap(fulfilTx)
	_ = m.Wrap(fulfilSplit)
	_ = m.Wrap(notify)
	mux.HandleFunc("unwrapped", unwrapped)
	return nil
}

func unwrapped(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO log (a) VALUES (1)") // want `handler unwrapped: SQL write not safe to repeat`
	return err
}

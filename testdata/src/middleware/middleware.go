// Package middleware: handlers wrapped by idemlint's runtime middleware where they are
// registered. The claim and completion marker enforce the key for the handler's database
// writes; an external effect still repeats after a crash, and is reported as such.
package middleware

import (
	"context"
	"database/sql"
	"net/smtp"
	"time"

	"github.com/chokaq/idemlint/idempotency"
	"github.com/hibiken/asynq"
)

var db *sql.DB

type OrderJob struct{ OrderID string }

// The runtime package's own handler shape: a function wrapped with m.Wrap is a handler.
func fulfil(ctx context.Context, job OrderJob) error {
	_, err := db.ExecContext(ctx, "INSERT INTO shipments (order_id) VALUES ($1)", job.OrderID)
	return err
}

func notify(ctx context.Context, job OrderJob) error {
	return smtp.SendMail("localhost:25", nil, "shop@example.com", nil, nil) // want `handler notify: email sent with no deduplication; the idempotency middleware claims this handler, but a crash after the external effect repeats it .*; missing: enforcement$`
}

func Register(mux *asynq.ServeMux) error {
	m, err := idempotency.New(func(j OrderJob) (string, error) { return j.OrderID, nil }, idempotency.WithRetention(72*time.Hour))
	if err != nil {
		return err
	}
	_ = m.Wrap(fulfil)
	_ = m.Wrap(notify)
	mux.HandleFunc("unwrapped", unwrapped)
	return nil
}

func unwrapped(ctx context.Context, t *asynq.Task) error {
	_, err := db.ExecContext(ctx, "INSERT INTO log (a) VALUES (1)") // want `handler unwrapped: SQL write not safe to repeat`
	return err
}

// Package flags holds sweeps over rows read with database/sql that test a row's flag and // want package:"has effects"
// set it with an UPDATE of that row before their effects, and the twins that set another
// column, or the flag of no row of theirs.
package flags

import (
	"context"
	"database/sql"
	"net/smtp"

	"github.com/hibiken/asynq"
)

var db *sql.DB

type invoice struct {
	ID       string
	Reminded bool
}

func notify(id string) error {
	return smtp.SendMail("mail:25", nil, "billing@example.com", []string{"ops@example.com"}, []byte(id))
}

// Remind mails each due invoice once: it marks the row reminded before the mail.
func Remind(ctx context.Context, t *asynq.Task) error { // want Remind:`effects email.send:claimed\(smtp.SendMail\)`
	rows, err := db.QueryContext(ctx, `SELECT id, reminded FROM invoices WHERE due_at < now()`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var inv invoice
		if err := rows.Scan(&inv.ID, &inv.Reminded); err != nil {
			return err
		}
		if !inv.Reminded {
			if _, err := db.ExecContext(ctx, `UPDATE invoices SET reminded = true, reminded_at = now() WHERE id = $1`, inv.ID); err != nil {
				return err
			}
			if err := notify(inv.ID); err != nil {
				return err
			}
		}
	}
	return rows.Err()
}

// RemindNoted writes another column: the next run finds the row unreminded and mails again.
func RemindNoted(ctx context.Context, t *asynq.Task) error { // want RemindNoted:`effects email.send:unprotected\(smtp.SendMail\)`
	rows, err := db.QueryContext(ctx, `SELECT id, reminded FROM invoices WHERE due_at < now()`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var inv invoice
		if err := rows.Scan(&inv.ID, &inv.Reminded); err != nil {
			return err
		}
		if !inv.Reminded {
			db.ExecContext(ctx, `UPDATE invoices SET note = 'reminder sent' WHERE id = $1`, inv.ID)
			notify(inv.ID) // want `handler RemindNoted: email sent with no deduplication`
		}
	}
	return rows.Err()
}

// RemindAll sets the flag on every row, whichever it tested.
func RemindAll(ctx context.Context, t *asynq.Task) error { // want RemindAll:`effects email.send:unprotected\(smtp.SendMail\)`
	rows, err := db.QueryContext(ctx, `SELECT id, reminded FROM invoices WHERE due_at < now()`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var inv invoice
		if err := rows.Scan(&inv.ID, &inv.Reminded); err != nil {
			return err
		}
		if !inv.Reminded {
			db.ExecContext(ctx, `UPDATE invoices SET reminded = true WHERE due_at < $1`, "2026-01-01")
			notify(inv.ID) // want `handler RemindAll: email sent with no deduplication`
		}
	}
	return rows.Err()
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("invoices:remind", Remind)
	mux.HandleFunc("invoices:noted", RemindNoted)
	mux.HandleFunc("invoices:all", RemindAll)
	mux.HandleFunc("invoices:sometimes", RemindSometimes)
}

// RemindSometimes marks the row only on one branch: when it does not, the mail goes again
// on the next run.
func RemindSometimes(ctx context.Context, t *asynq.Task) error { // want RemindSometimes:`effects email.send:unprotected\(smtp.SendMail\)`
	rows, err := db.QueryContext(ctx, `SELECT id, reminded FROM invoices WHERE due_at < now()`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var inv invoice
		if err := rows.Scan(&inv.ID, &inv.Reminded); err != nil {
			return err
		}
		if !inv.Reminded {
			if len(inv.ID) > 8 {
				db.ExecContext(ctx, `UPDATE invoices SET reminded = true WHERE id = $1`, inv.ID)
			}
			notify(inv.ID) // want `handler RemindSometimes: email sent with no deduplication`
		}
	}
	return rows.Err()
}

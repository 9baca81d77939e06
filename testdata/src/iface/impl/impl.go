// Package impl implements a notifier interface with an email side effect. // want package:"has effects"
package impl

import (
	"database/sql"
	"net/smtp"
)

type SMTPNotifier struct{}

func (SMTPNotifier) Notify(to string) error { // want Notify:`effects email.send`
	return smtp.SendMail("localhost:25", nil, "a@example.com", []string{to}, nil)
}

// JobLog is an io.Closer whose Close writes to a database: in view of every package that
// imports this one, but not an io.ReadCloser.
type JobLog struct{ db *sql.DB }

func (l *JobLog) Close() error { // want Close:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	_, err := l.db.Exec("INSERT INTO job_log (done) VALUES (true)")
	return err
}

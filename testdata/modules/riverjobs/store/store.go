// Package store declares the service's storage as an interface with its one implementation
// beside it, as services do: the workers hold a Store, main makes the *PG.
package store

import (
	"context"
	"database/sql"
)

// Store is what the workers ask of the database.
type Store interface {
	Pool() *sql.DB
	Status(ctx context.Context, id string) (string, error)
}

// PG is the PostgreSQL Store: it only reads.
type PG struct{ db *sql.DB }

// New returns the Store of db.
func New(db *sql.DB) *PG { return &PG{db: db} }

func (s *PG) Pool() *sql.DB { return s.db }

func (s *PG) Status(ctx context.Context, id string) (string, error) {
	var status string
	err := s.db.QueryRowContext(ctx, `SELECT status FROM audits WHERE id = $1`, id).Scan(&status)
	return status, err
}

// Alerter sends an alert; nothing in the program implements it (a plugin does).
type Alerter interface {
	Alert(ctx context.Context, msg string) error
}

// Mailer sends mail. NopMailer, beside it, does nothing; the one main wires is in package
// mail, which the workers' package does not import.
type Mailer interface {
	Send(to, body string) error
}

// NopMailer is the Mailer of tests.
type NopMailer struct{}

func (NopMailer) Send(to, body string) error { return nil }

// Hook is run after a record is closed; main sets the one the service runs.
type Hook func(ctx context.Context, id string) error

// Package store keeps orders. Its implementation is unexported and reaches its importers
// only as a Store interface value: its type is in no export data of the package's API.
package store

import (
	"context"
	"database/sql"
)

// Store is what the workers need.
type Store interface {
	Create(ctx context.Context, id string) error
}

// New returns the database's Store.
func New(db *sql.DB) Store { return &orders{db: db} }

type orders struct{ db *sql.DB }

// Create inserts the order: a second run inserts it again.
func (o *orders) Create(ctx context.Context, id string) error {
	_, err := o.db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id)
	return err
}

// Ledger is what the billing worker needs. Its implementation embeds a generated one whose
// method it promotes, as go-zero's custom models embed their default ones: neither type is
// in the export data of the package's API.
type Ledger interface {
	Record(ctx context.Context, id string) error
	Close() error
}

// NewLedger returns the database's Ledger.
func NewLedger(db *sql.DB) Ledger { return &customLedger{defaultLedger: &defaultLedger{db: db}} }

type defaultLedger struct{ db *sql.DB }

// Record inserts the entry: a second run records it twice.
func (l *defaultLedger) Record(ctx context.Context, id string) error {
	_, err := l.db.ExecContext(ctx, "INSERT INTO ledger (id) VALUES ($1)", id)
	return err
}

type customLedger struct{ *defaultLedger }

func (c *customLedger) Close() error { return nil }

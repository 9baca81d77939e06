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

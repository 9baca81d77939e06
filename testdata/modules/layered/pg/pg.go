// Package pg implements the order store; it imports the layer it implements.
package pg

import (
	"context"
	"database/sql"

	"layered/orders"
)

// Notifier tells the customer; main wires package mailer's.
type Notifier interface {
	Notify(ctx context.Context, id string) error
}

// Orders is the store main wires into the handlers.
type Orders struct {
	DB       *sql.DB
	Notifier Notifier
}

var _ orders.Store = (*Orders)(nil)

// Create inserts the order with no conflict handling.
func (o *Orders) Create(ctx context.Context, id string) error {
	if _, err := o.DB.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id); err != nil {
		return err
	}
	return o.Notifier.Notify(ctx, id)
}

// Archive implements orders.Store too, but nothing converts it to an interface: no
// interface call can reach it.
type Archive struct{ DB *sql.DB }

// Create copies the order into the archive.
func (a *Archive) Create(ctx context.Context, id string) error {
	_, err := a.DB.ExecContext(ctx, "INSERT INTO archive (id) VALUES ($1)", id)
	return err
}

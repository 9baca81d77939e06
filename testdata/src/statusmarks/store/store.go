// Package store is a domain model with private fields behind getters, and repositories // want package:"has effects"
// that mark an order's state by the name of the method (MarkCompensated), on a unit of
// work that runs a function on one transaction.
package store

import (
	"context"
	"database/sql"
)

// OrderStatus is an order's state.
type OrderStatus string

const (
	OrderStatusPaid        OrderStatus = "paid"
	OrderStatusCompensated OrderStatus = "compensated"
	OrderStatusCancelled   OrderStatus = "CANCELLED"
)

// Order keeps its state private.
type Order struct {
	id     string
	status OrderStatus
}

// Status is the order's state.
func (o *Order) Status() OrderStatus { return o.status }

// ID is the order's id.
func (o *Order) ID() string { return o.id }

// Orders is the orders' repository.
type Orders struct{ Tx *sql.Tx }

// GetByID reads an order.
func (r *Orders) GetByID(ctx context.Context, id string) (*Order, error) {
	o := &Order{id: id}
	err := r.Tx.QueryRowContext(ctx, "SELECT status FROM orders WHERE id = $1", id).Scan(&o.status)
	return o, err
}

// MarkCompensated sets the order's state to compensated.
func (r *Orders) MarkCompensated(ctx context.Context, id string) error { // want MarkCompensated:`effects sql.write:protected\(\(\*sql.Tx\).ExecContext\)$`
	_, err := r.Tx.ExecContext(ctx, "UPDATE orders SET status = 'compensated' WHERE id = $1", id)
	return err
}

// MarkAsCancelled sets the order's state to cancelled.
func (r *Orders) MarkAsCancelled(ctx context.Context, id string) error { // want MarkAsCancelled:`effects sql.write:protected\(\(\*sql.Tx\).ExecContext\)$`
	_, err := r.Tx.ExecContext(ctx, "UPDATE orders SET status = 'CANCELLED' WHERE id = $1", id)
	return err
}

// Tickets is the ticket stock's repository.
type Tickets struct{ Tx *sql.Tx }

// IncrementTicket puts n tickets back on sale.
func (r *Tickets) IncrementTicket(ctx context.Context, id string, n int) error { // want IncrementTicket:`effects sql.write:unprotected\(\(\*sql.Tx\).ExecContext\)$`
	_, err := r.Tx.ExecContext(ctx, "UPDATE ticket_types SET available = available + $2 WHERE id = $1", id, n)
	return err
}

// Repositories are the repositories of one transaction.
type Repositories struct {
	Order  *Orders
	Ticket *Tickets
}

// UnitOfWork runs fn on one transaction, committed when fn returns nil.
type UnitOfWork struct{ DB *sql.DB }

// Do runs fn on a new transaction and commits it when fn returns nil.
func (u *UnitOfWork) Do(ctx context.Context, fn func(r *Repositories) error) error { // want Do:`calls-params\(1\)`
	tx, err := u.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(&Repositories{Order: &Orders{Tx: tx}, Ticket: &Tickets{Tx: tx}}); err != nil {
		return err
	}
	return tx.Commit()
}

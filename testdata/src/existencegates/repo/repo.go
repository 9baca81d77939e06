// Package repo is a payments store: a lookup by order and an insert. // want package:"has effects"
package repo

import (
	"context"
	"database/sql"
	"errors"
)

var ErrNotFound = errors.New("not found")

type Payment struct{ ID, OrderID, Status string }

const StatusCaptured = "captured"

type Store struct{ db *sql.DB }

// GetByOrderID returns the order's payment, or ErrNotFound.
func (s *Store) GetByOrderID(ctx context.Context, orderID string) (*Payment, error) {
	var p Payment
	err := s.db.QueryRowContext(ctx, "SELECT id, order_id FROM payments WHERE order_id = $1", orderID).Scan(&p.ID, &p.OrderID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return &p, err
}

// Create inserts the order's payment.
func (s *Store) Create(ctx context.Context, orderID string) error { // want Create:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := s.db.ExecContext(ctx, "INSERT INTO payments (order_id) VALUES ($1)", orderID)
	return err
}

// IsProcessed says whether the order's payment was made.
func (s *Store) IsProcessed(ctx context.Context, orderID string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM payments WHERE order_id = $1", orderID).Scan(&n)
	return n > 0, err
}

// SetStatus sets the payment's status.
func (s *Store) SetStatus(ctx context.Context, orderID, status string) error { // want SetStatus:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := s.db.ExecContext(ctx, "UPDATE payments SET status = $2 WHERE order_id = $1", orderID, status)
	return err
}

// GetStatus returns the order's payment status.
func (s *Store) GetStatus(ctx context.Context, orderID string) (string, error) {
	var status string
	err := s.db.QueryRowContext(ctx, "SELECT status FROM payments WHERE order_id = $1", orderID).Scan(&status)
	return status, err
}

// MarkProcessing moves the order's payment to processing.
func (s *Store) MarkProcessing(ctx context.Context, orderID string) error { // want MarkProcessing:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := s.db.ExecContext(ctx, "UPDATE payments SET status = 'processing' WHERE order_id = $1", orderID)
	return err
}

// FetchOrder checks that the order can be paid.
func (s *Store) FetchOrder(ctx context.Context, orderID string) error {
	return s.db.QueryRowContext(ctx, "SELECT 1 FROM orders WHERE id = $1", orderID).Scan(new(int))
}

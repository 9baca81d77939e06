// Package store is the order service's database.
package store

import (
	"context"
	"database/sql"
)

// Store writes orders.
type Store struct{ DB *sql.DB }

// SetStatus sets an order's status: an absolute value, so a repeat converges.
func (s *Store) SetStatus(ctx context.Context, id, status string) error {
	_, err := s.DB.ExecContext(ctx, "UPDATE orders SET status = $1 WHERE id = $2", status, id)
	return err
}

// Insert adds an order once: a repeat of the same id does nothing.
func (s *Store) Insert(ctx context.Context, id string) error {
	_, err := s.DB.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1) ON CONFLICT (id) DO NOTHING", id)
	return err
}

// AddNote appends a note: every run adds a row.
func (s *Store) AddNote(ctx context.Context, id, note string) error {
	_, err := s.DB.ExecContext(ctx, "INSERT INTO notes (order_id, body) VALUES ($1, $2)", id, note)
	return err
}

// Package repo is a payments store: a lookup by order and an insert. // want package:"has effects"
package repo

import (
	"context"
	"database/sql"
	"errors"
	"log"
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

// Cache remembers the keys of handled messages.
type Cache struct{ keys map[string]bool }

// IsExist says whether key was recorded.
func (c *Cache) IsExist(ctx context.Context, key string) (bool, error) { return c.keys[key], nil }

// Set records key.
func (c *Cache) Set(ctx context.Context, key string) error { c.keys[key] = true; return nil }

// CacheExists says whether a row is cached under key.
func (s *Store) CacheExists(ctx context.Context, key string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM cache WHERE key = $1", key).Scan(&n)
	return n > 0, err
}

// Cache writes value under key: an insert when the key is not there, else an update (a
// hand-written upsert).
func (s *Store) Cache(ctx context.Context, key, value string) error { // want Cache:`effects sql.write:claimed\(\(\*sql.DB\).ExecContext\)`
	ok, err := s.CacheExists(ctx, key)
	if err != nil {
		return err
	}
	if !ok {
		_, err = s.db.ExecContext(ctx, "INSERT INTO cache (key, value) VALUES ($1, $2)", key, value)
	} else {
		_, err = s.db.ExecContext(ctx, "UPDATE cache SET value = $2 WHERE key = $1", key, value)
	}
	return err
}

// CacheBlind inserts whatever the check said: a repeat inserts again.
func (s *Store) CacheBlind(ctx context.Context, key, value string) error { // want CacheBlind:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	ok, _ := s.CacheExists(ctx, key)
	if ok {
		log.Printf("%s cached", key)
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO cache (key, value) VALUES ($1, $2)", key, value)
	return err
}

// ListTags returns the tags linked to a bookmark.
func (s *Store) ListTags(ctx context.Context, bookmarkID string) ([]string, error) {
	return nil, nil
}

// LinkTags links tags to a bookmark.
func (s *Store) LinkTags(ctx context.Context, bookmarkID string, tags []string) error { // want LinkTags:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := s.db.ExecContext(ctx, "INSERT INTO bookmark_tags (bookmark_id, tag) SELECT $1, unnest($2::text[])", bookmarkID, tags)
	return err
}

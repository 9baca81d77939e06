// Package store writes the ledger.
package store

import (
	"context"
	"database/sql"
)

// Add inserts an entry with no conflict handling: a repeat adds it twice.
func Add(ctx context.Context, db *sql.DB, payload []byte) error {
	_, err := db.ExecContext(ctx, "INSERT INTO ledger (payload) VALUES ($1)", payload)
	return err
}

// Put inserts an entry once: a repeat converges.
func Put(ctx context.Context, db *sql.DB, payload []byte) error {
	_, err := db.ExecContext(ctx, "INSERT INTO ledger (payload) VALUES ($1) ON CONFLICT (payload) DO NOTHING", payload)
	return err
}

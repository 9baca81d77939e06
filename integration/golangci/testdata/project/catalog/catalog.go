// Package catalog has a handler whose effect is safe to repeat: nothing to report.
package catalog

import (
	"context"
	"database/sql"
)

var db *sql.DB

// HandleProductImported upserts the product: a repeat converges.
//
//idemlint:handler
func HandleProductImported(ctx context.Context, sku string) error {
	_, err := db.ExecContext(ctx, "INSERT INTO products (sku) VALUES ($1) ON CONFLICT (sku) DO NOTHING", sku)
	return err
}

// Package acts holds Temporal activities: methods of structs, registered by another // want package:"has effects"
// package through a list of method values in a worker configuration.
package acts

import (
	"context"
	"database/sql"
)

var db *sql.DB

// Invoices computes invoices.
type Invoices struct{}

// Compute inserts an invoice line: a retried activity inserts it again.
func (Invoices) Compute(ctx context.Context, id string) error { // want Compute:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO lines (invoice_id) VALUES ($1)", id)
	return err
}

// Mark is Compute's twin: it converges.
func (Invoices) Mark(ctx context.Context, id string) error { // want Mark:`effects sql.write:protected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "UPDATE invoices SET computed = true WHERE id = $1", id)
	return err
}

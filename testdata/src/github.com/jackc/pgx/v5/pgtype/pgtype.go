// Package pgtype is a stub of github.com/jackc/pgx/v5/pgtype v5.12.0; only
// Map exists, because pgx.Rows mentions it.
package pgtype

// Map maps PostgreSQL types to Go types.
type Map struct{}

// Package shop is the project the integration tests lint: handlers marked
// //idemlint:handler with effects from the standard library, so it needs no module
// downloads.
package shop

import (
	"context"
	"database/sql"
	"net/smtp"
)

var db *sql.DB

// HandleOrderCreated records an order and mails a receipt: neither is safe to repeat.
//
//idemlint:handler
func HandleOrderCreated(ctx context.Context, id int64) error {
	if _, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", id); err != nil {
		return err
	}
	return smtp.SendMail("localhost:25", nil, "shop@example.com", []string{"customer@example.com"}, nil)
}

// HandleRefund credits an account; the finding is silenced for golangci-lint only.
//
//idemlint:handler
func HandleRefund(ctx context.Context, id int64) error {
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance + 1 WHERE id = $1", id) //nolint:idemlint // reviewed: refunds are reconciled daily
	return err
}

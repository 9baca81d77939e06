// Package service registers its handler with spawn's consumer. // want package:"has effects"
package service

import (
	"context"
	"database/sql"

	"handoff/spawn"
)

var db *sql.DB

// Orders is the service's handler.
type Orders struct{}

func (Orders) Handle(ctx context.Context, m spawn.Message) error { // want Handle:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", m.ID) // want `^handler \(Orders\).Handle: SQL write not safe to repeat: INSERT without conflict handling \(\(Orders\).Handle -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
	return err
}

func Start(ctx context.Context, c *spawn.Consumer) error { // want Start:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	return c.Run(ctx, Orders{}.Handle)
}

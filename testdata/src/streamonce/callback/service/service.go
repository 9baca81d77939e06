// Package service registers its handler with callback's consumer: it runs at most once, so // want package:"has effects"
// its INSERT is not reported.
package service

import (
	"context"
	"database/sql"

	"streamonce/callback"
)

var db *sql.DB

type Orders struct{}

func (Orders) Handle(ctx context.Context, m callback.Message) error { // want Handle:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", m.ID)
	return err
}

func Start(ctx context.Context, c *callback.Consumer) { // want Start:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	c.Run(ctx, Orders{}.Handle)
}

// Package orders registers its handler through app.Registrar, never importing the
// implementation, which main wires in.
package orders

import (
	"context"
	"database/sql"

	"registrar/app"
)

// DB is the orders database.
var DB *sql.DB

func onOrder(ctx context.Context, data []byte) error {
	_, err := DB.ExecContext(ctx, "INSERT INTO orders (body) VALUES ($1)", data)
	return err
}

func audit(ctx context.Context, data []byte) error {
	_, err := DB.ExecContext(ctx, "INSERT INTO audit (body) VALUES ($1)", data)
	return err
}

// Setup registers the handlers.
func Setup(r app.Registrar) {
	r.Add("orders", onOrder)
}

// Later is the twin: a scheduler whose implementation only calls the function.
type Later interface {
	Run(f func(ctx context.Context, data []byte) error)
}

// Schedule hands audit to a Later, which is no registration.
func Schedule(l Later) { l.Run(audit) }

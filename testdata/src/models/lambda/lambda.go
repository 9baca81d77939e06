// Command lambda exercises the Lambda model: the function given to lambda.Start. // want package:"has effects"
package main

import (
	"context"
	"database/sql"

	"github.com/aws/aws-lambda-go/lambda"
)

var db *sql.DB

type OrderEvent struct{ OrderID string }

func handle(ctx context.Context, e OrderEvent) error {
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1)", e.OrderID) // want `handler handle: SQL write not safe to repeat: INSERT without conflict handling \(handle -> \(\*sql.DB\).ExecContext\); missing: key, enforcement`
	return err
}

func handleUpsert(ctx context.Context, e OrderEvent) error {
	_, err := db.ExecContext(ctx, "INSERT INTO orders (id) VALUES ($1) ON CONFLICT (id) DO NOTHING", e.OrderID)
	return err
}

func main() {
	if false {
		lambda.StartWithOptions(handleUpsert)
	}
	lambda.Start(handle)
}

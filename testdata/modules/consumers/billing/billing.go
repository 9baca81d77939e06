// Package billing hands the library's NewWorker an interface value: its Handle method is
// the handler.
package billing

import (
	"context"
	"database/sql"

	"example.com/mq"
	"github.com/streadway/amqp"
)

type charger struct{ db *sql.DB }

func (c *charger) Handle(ctx context.Context, m mq.Message) error {
	_, err := c.db.ExecContext(ctx, "UPDATE accounts SET balance = balance - 10 WHERE id = $1", m.ID)
	return err
}

// Start runs the charges worker.
func Start(ctx context.Context, db *sql.DB, ch *amqp.Channel) error {
	return mq.NewWorker(ch, "charges", &charger{db: db}).Start(ctx)
}

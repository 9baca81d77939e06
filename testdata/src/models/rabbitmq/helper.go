package rabbitmq // want package:"has effects"

import (
	"context"

	amqp "github.com/rabbitmq/amqp091-go"

	"models/rabbitmq/mq"
)

// The functions given to another package's consume helper are the handlers.
func creditAccount(ctx context.Context, body []byte) error {
	_, err := db.ExecContext(ctx, "UPDATE accounts SET balance = balance + 1 WHERE id = $1", string(body)) // want `handler creditAccount: SQL write not safe to repeat: relative UPDATE of balance \(creditAccount -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
	return err
}

func closeAccount(ctx context.Context, body []byte) error {
	_, err := db.ExecContext(ctx, "UPDATE accounts SET closed = true WHERE id = $1", string(body))
	return err
}

func runHelpers(ctx context.Context, ch *amqp.Channel) {
	go mq.Consume(ctx, ch, "credits", creditAccount)
	go mq.Consume(ctx, ch, "closes", closeAccount)
}

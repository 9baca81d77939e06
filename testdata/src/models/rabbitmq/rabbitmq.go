// Package rabbitmq exercises the amqp091-go model: consumers that range over, or select on,
// the deliveries channel Consume returns, hand it to workers or to a callback, and end their
// handler at the delivery's Ack; and publishes with and without a MessageId.
package rabbitmq

import (
	"context"
	"database/sql"

	amqp "github.com/rabbitmq/amqp091-go"
)

var db *sql.DB

// rangeLoop inserts a row per delivery: a redelivery (the process stops before the Ack)
// inserts it again.
func rangeLoop(ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		db.Exec("INSERT INTO orders (id) VALUES ($1)", string(d.Body)) // want `handler receive loop in rangeLoop: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in rangeLoop -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
		d.Ack(false)
	}
}

// rangeLoopSafe is rangeLoop with conflict handling: the repeat does nothing.
func rangeLoopSafe(ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		db.Exec("INSERT INTO orders (id) VALUES ($1) ON CONFLICT DO NOTHING", string(d.Body))
		d.Ack(false)
	}
}

// autoAck consumes with autoAck true: the broker forgets each delivery as it sends it, so
// nothing is redelivered (at most once) and the loop is no handler.
func autoAck(ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", true, false, false, false, nil)
	for d := range msgs {
		db.Exec("INSERT INTO orders (id) VALUES ($1)", string(d.Body))
	}
}

// selectLoop receives in a select inside a for; the other case is no handler.
func selectLoop(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.ConsumeWithContext(ctx, "orders", "", false, false, false, false, nil)
	for {
		select {
		case <-ctx.Done():
			db.Exec("INSERT INTO shutdowns (at) VALUES (now())")
			return
		case d, ok := <-msgs:
			if !ok {
				return
			}
			db.Exec("UPDATE stock SET n = n - 1 WHERE sku = $1", string(d.Body)) // want `handler receive case in selectLoop: SQL write not safe to repeat: relative UPDATE of n \(receive case in selectLoop -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
			d.Ack(false)
		}
	}
}

// selectLoopSafe sets the stock absolutely: the repeat converges.
func selectLoopSafe(ctx context.Context, ch *amqp.Channel) {
	msgs, _ := ch.ConsumeWithContext(ctx, "orders", "", false, false, false, false, nil)
	for {
		select {
		case <-ctx.Done():
			return
		case d := <-msgs:
			db.Exec("UPDATE stock SET n = 0 WHERE sku = $1", string(d.Body))
			d.Ack(false)
		}
	}
}

// recvLoop receives with d, ok := <-msgs outside a select.
func recvLoop(ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for {
		d, ok := <-msgs
		if !ok {
			return
		}
		db.Exec("UPDATE stock SET n = n + 1 WHERE sku = $1", string(d.Body)) // want `handler receive loop in recvLoop: SQL write not safe to repeat: relative UPDATE of n`
		d.Ack(false)
	}
}

// ackFirst acknowledges before its effect: a crash after the Ack does not redeliver, so the
// effect is not repeated by a redelivery (it may be lost instead).
func ackFirst(ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		if err := d.Ack(false); err != nil {
			continue
		}
		db.Exec("UPDATE stock SET n = n - 1 WHERE sku = $1", string(d.Body))
	}
}

// ackLast does the same effect before the Ack: repeated on redelivery.
func ackLast(ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		db.Exec("UPDATE stock SET n = n - 1 WHERE sku = $1", string(d.Body)) // want `handler receive loop in ackLast: SQL write not safe to repeat: relative UPDATE of n`
		if err := d.Ack(false); err != nil {
			continue
		}
	}
}

// nackOnError nacks in a branch: that does not end the handler, the effect after it is
// still repeated.
func nackOnError(ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		if len(d.Body) == 0 {
			d.Nack(false, false)
			continue
		}
		db.Exec("UPDATE stock SET n = n - 1 WHERE sku = $1", string(d.Body)) // want `handler receive loop in nackOnError: SQL write not safe to repeat: relative UPDATE of n`
		d.Ack(false)
	}
}

// Package streadway exercises the streadway/amqp model, the client amqp091-go was forked // want package:"has effects"
// from: the same consumers (range, select case, workers fed over a channel, auto-ack) and
// publishes.
package streadway

import (
	"database/sql"

	"github.com/streadway/amqp"
)

var db *sql.DB

func consume(ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		db.Exec("INSERT INTO orders (id) VALUES ($1)", string(d.Body)) // want `handler receive loop in consume: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in consume -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
		d.Ack(false)
	}
}

func consumeUpsert(ch *amqp.Channel) {
	msgs, _ := ch.Consume("orders", "", false, false, false, false, nil)
	for d := range msgs {
		db.Exec("INSERT INTO orders (id) VALUES ($1) ON CONFLICT DO NOTHING", string(d.Body))
		d.Ack(false)
	}
}

// autoAcked: the channel is stored in a struct field, consumed with autoAck true.
type autoAcked struct{ msgs <-chan amqp.Delivery }

func startAutoAcked(ch *amqp.Channel) *autoAcked {
	a := &autoAcked{}
	a.msgs, _ = ch.Consume("orders", "", true, false, false, false, nil)
	return a
}

func (a *autoAcked) run() { // want run:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	for d := range a.msgs {
		db.Exec("INSERT INTO orders (id) VALUES ($1)", string(d.Body))
	}
}

// workers receive the deliveries a dispatcher forwards; the select case acks before its
// publish, which is then not repeated by a redelivery.
func workers(ch *amqp.Channel, stop <-chan struct{}) {
	msgs, _ := ch.Consume("events", "", false, false, false, false, nil)
	jobs := make(chan *amqp.Delivery)
	go func() {
		for {
			select {
			case <-stop:
				return
			case d := <-jobs:
				ch.Publish("", "audit", false, false, amqp.Publishing{Body: d.Body}) // want `handler receive case in func literal in workers: RabbitMQ message without an idempotency key \(receive case in func literal in workers -> \(\*amqp.Channel\).Publish\); missing: key, enforcement$`
				d.Ack(false)
			}
		}
	}()
	go func() {
		for {
			select {
			case <-stop:
				return
			case d := <-jobs:
				d.Ack(false)
				ch.Publish("", "audit", false, false, amqp.Publishing{Body: d.Body})
			}
		}
	}()
	for d := range msgs {
		jobs <- &d
	}
}

func relayKeyed(ch *amqp.Channel) {
	msgs, _ := ch.Consume("in", "", false, false, false, false, nil)
	for d := range msgs {
		ch.Publish("", "out", false, false, amqp.Publishing{MessageId: "relay-" + d.MessageId, Body: d.Body}) // want `handler receive loop in relayKeyed: RabbitMQ message with a message id: each consumer must deduplicate by it, unless the broker is configured to .*; missing: enforcement$`
		d.Ack(false)
	}
}

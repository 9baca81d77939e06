// Package buffer consumes through an in-process buffer: the receive loop pushes each // want package:"has effects" package:"carries\\(handoff/buffer.pending github.com/streadway/amqp\\)"
// delivery onto a Buffer, whose Push sends it on a channel that Drain's goroutines read,
// write and ack. Drain's loop is the handler; the receive loop is none.
package buffer

import (
	"database/sql"

	"github.com/streadway/amqp"
)

var db *sql.DB

type pending struct {
	body []byte
	d    amqp.Delivery
}

// Buffer holds deliveries until a worker takes them.
type Buffer struct{ items chan pending }

// Push queues d.
func (b *Buffer) Push(d amqp.Delivery) { b.items <- pending{body: d.Body, d: d} }

// Drain writes each buffered delivery and acks it.
func (b *Buffer) Drain() { // want Drain:`effects sql.write:unprotected\(\(\*sql.DB\).Exec\)`
	for p := range b.items {
		if _, err := db.Exec("INSERT INTO events (body) VALUES ($1)", p.body); err != nil { // want `handler receive loop in \(\*Buffer\).Drain: SQL write not safe to repeat: INSERT without conflict handling`
			continue
		}
		_ = p.d.Ack(false)
	}
}

// Consume pushes what it receives.
func Consume(ch *amqp.Channel, b *Buffer) {
	msgs, _ := ch.Consume("events", "", false, false, false, false, nil)
	for d := range msgs {
		b.Push(d)
	}
}

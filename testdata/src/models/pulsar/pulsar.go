// Package pulsar exercises the Pulsar model: Receive loops and sends from them, with and // want package:"has effects"
// without a sequence id.
package pulsar

import (
	"context"
	"database/sql"
	"time"

	"github.com/apache/pulsar-client-go/pulsar"
)

var db *sql.DB

// Forward sends each received message on: a redelivery sends it again.
func Forward(ctx context.Context, c pulsar.Consumer, p pulsar.Producer) error {
	for {
		m, err := c.Receive(ctx)
		if err != nil {
			return err
		}
		if _, err := p.Send(ctx, &pulsar.ProducerMessage{Payload: m.Payload(), Key: m.Key()}); err != nil { // want `handler receive loop in Forward: Pulsar message without an idempotency key \(receive loop in Forward -> \(pulsar.Producer\).Send\); missing: key, enforcement$`
			c.Nack(m)
			continue
		}
		c.Ack(m)
	}
}

// ForwardSeq gives the sent message a sequence id made from the received one's entry: the
// key is answered, its enforcement (broker deduplication) is configuration out of view.
func ForwardSeq(ctx context.Context, c pulsar.Consumer, p pulsar.Producer) error {
	for {
		m, err := c.Receive(ctx)
		if err != nil {
			return err
		}
		seq := m.ID().EntryID()
		if _, err := p.Send(ctx, &pulsar.ProducerMessage{Payload: m.Payload(), SequenceID: &seq}); err != nil { // want `handler receive loop in ForwardSeq: Pulsar message with a message id: each consumer must deduplicate by it, unless the broker is configured to .*missing: enforcement`
			continue
		}
		c.Ack(m)
	}
}

// Clock gives the sent message a sequence id from the clock: new on every run.
func Clock(ctx context.Context, c pulsar.Consumer, p pulsar.Producer) {
	for {
		m, err := c.Receive(ctx)
		if err != nil {
			return
		}
		seq := time.Now().UnixNano()
		p.SendAsync(ctx, &pulsar.ProducerMessage{Payload: m.Payload(), SequenceID: &seq}, nil) // want `handler receive loop in Clock: Pulsar message with a key that changes on every retry \(made from time.Now\) \(receive loop in Clock -> \(pulsar.Producer\).SendAsync\); missing: key$`
		c.Ack(m)
	}
}

// Store inserts a row per message.
func Store(ctx context.Context, c pulsar.Consumer) {
	for {
		m, err := c.Receive(ctx)
		if err != nil {
			return
		}
		db.ExecContext(ctx, "INSERT INTO events (body) VALUES ($1)", m.Payload()) // want `handler receive loop in Store: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in Store -> \(\*sql.DB\).ExecContext\); missing: key, enforcement$`
		c.Ack(m)
	}
}

// StoreSafe upserts by the message's key.
func StoreSafe(ctx context.Context, c pulsar.Consumer) {
	for {
		m, err := c.Receive(ctx)
		if err != nil {
			return
		}
		db.ExecContext(ctx, "INSERT INTO events (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", m.Key(), m.Payload())
		c.Ack(m)
	}
}

// Ranged handles what the consumer's channel delivers: a redelivery inserts again.
func Ranged(ctx context.Context, c pulsar.Consumer) { // want Ranged:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	for cm := range c.Chan() {
		db.ExecContext(ctx, "INSERT INTO events (body) VALUES ($1)", cm.Payload()) // want `handler receive loop in Ranged: SQL write not safe to repeat: INSERT without conflict handling`
		cm.Ack(cm.Message)
	}
}

// AckedFirst acknowledges before it writes: the handler ends at the Ack.
func AckedFirst(ctx context.Context, c pulsar.Consumer) { // want AckedFirst:`effects sql.write:unprotected\(\(\*sql.DB\).ExecContext\)`
	for cm := range c.Chan() {
		c.Ack(cm.Message)
		db.ExecContext(ctx, "INSERT INTO late (body) VALUES ($1)", cm.Payload())
	}
}

// Package confluent exercises the confluent-kafka-go model: ReadMessage and Poll loops, // want package:"has effects"
// produces from them, and a transaction that sends the consumed offsets.
package confluent

import (
	"context"
	"database/sql"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

var db *sql.DB

// Read inserts a row per message read: a redelivery inserts again.
func Read(c *kafka.Consumer) error {
	for {
		m, err := c.ReadMessage(time.Second)
		if err != nil {
			continue
		}
		if _, err := db.Exec("INSERT INTO events (id, body) VALUES ($1, $2)", string(m.Key), m.Value); err != nil { // want `handler receive loop in Read: SQL write not safe to repeat: INSERT without conflict handling \(receive loop in Read -> \(\*sql.DB\).Exec\); missing: key, enforcement$`
			return err
		}
		if _, err := c.CommitMessage(m); err != nil {
			return err
		}
	}
}

// ReadSafe upserts.
func ReadSafe(c *kafka.Consumer) error {
	for {
		m, err := c.ReadMessage(time.Second)
		if err != nil {
			continue
		}
		if _, err := db.Exec("INSERT INTO events (id, body) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", string(m.Key), m.Value); err != nil {
			return err
		}
		c.CommitMessage(m)
	}
}

// Polled forwards each message of a Poll loop's *kafka.Message case.
func Polled(c *kafka.Consumer, p *kafka.Producer) {
	out := "out"
	for {
		switch e := c.Poll(100).(type) {
		case *kafka.Message:
			p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &out, Partition: -1}, Value: e.Value}, nil) // want `handler receive loop in Polled: Kafka message sent with no deduplication \(receive loop in Polled -> \(\*kafka.Producer\).Produce\); missing: key, enforcement$`
			c.CommitMessage(e)
		case kafka.Event:
		}
	}
}

// PolledSafe only updates to absolute values.
func PolledSafe(c *kafka.Consumer) {
	for {
		ev := c.Poll(100)
		if m, ok := ev.(*kafka.Message); ok {
			db.Exec("UPDATE users SET name = $1 WHERE id = $2", m.Value, string(m.Key))
		}
	}
}

// Channel sends each message on the produce channel.
func Channel(c *kafka.Consumer, p *kafka.Producer) {
	for {
		m, err := c.ReadMessage(-1)
		if err == nil {
			p.ProduceChannel() <- &kafka.Message{Value: m.Value} // want `handler receive loop in Channel: Kafka message sent with no deduplication \(receive loop in Channel -> \(\*kafka.Producer\).ProduceChannel\); missing: key, enforcement$`
		}
	}
}

// Transactional produces in a transaction that also commits the consumed offsets: exactly
// once for read_committed consumers.
func Transactional(ctx context.Context, c *kafka.Consumer, p *kafka.Producer) error {
	for {
		m, err := c.ReadMessage(time.Second)
		if err != nil {
			continue
		}
		if err := p.BeginTransaction(); err != nil {
			return err
		}
		if err := p.Produce(&kafka.Message{Value: m.Value}, nil); err != nil {
			return err
		}
		pos, _ := c.Position([]kafka.TopicPartition{m.TopicPartition})
		meta, _ := c.GetConsumerGroupMetadata()
		if err := p.SendOffsetsToTransaction(ctx, pos, meta); err != nil {
			return err
		}
		if err := p.CommitTransaction(ctx); err != nil {
			return err
		}
	}
}

// NoOffsets commits the transaction but the offset apart from it: a crash between them
// produces again.
func NoOffsets(ctx context.Context, c *kafka.Consumer, p *kafka.Producer) error {
	for {
		m, err := c.ReadMessage(time.Second)
		if err != nil {
			continue
		}
		p.BeginTransaction()
		if err := p.Produce(&kafka.Message{Value: m.Value}, nil); err != nil { // want `handler receive loop in NoOffsets: Kafka message sent with no deduplication \(receive loop in NoOffsets -> \(\*kafka.Producer\).Produce\); missing: key, enforcement$`
			return err
		}
		if err := p.CommitTransaction(ctx); err != nil {
			return err
		}
		c.CommitMessage(m)
	}
}

// StoreFirst stores the message's offset before it writes: the loop's handler ends there.
func StoreFirst(c *kafka.Consumer) error {
	for {
		m, err := c.ReadMessage(time.Second)
		if err != nil {
			continue
		}
		c.StoreMessage(m)
		db.Exec("INSERT INTO late (id) VALUES ($1)", string(m.Key))
	}
}

// Package kafka exercises the kafka-go and sarama models: writes from an asynq handler and // want package:"has effects"
// from a sarama ConsumeClaim handler, and a consumer group handler without effects.
package kafka

import (
	"context"

	"github.com/IBM/sarama"
	"github.com/hibiken/asynq"
	"github.com/segmentio/kafka-go"
)

var writer *kafka.Writer

func Forward(ctx context.Context, t *asynq.Task) error { // want Forward:`effects publish:unprotected\(\(\*kafka.Writer\).WriteMessages\)`
	return writer.WriteMessages(ctx, kafka.Message{Key: []byte(t.Type()), Value: t.Payload()}) // want `handler Forward: Kafka message sent with no deduplication \(Forward -> \(\*kafka.Writer\).WriteMessages\); missing: key, enforcement`
}

// Relay republishes every claimed message.
type Relay struct {
	Producer sarama.SyncProducer
	Async    sarama.AsyncProducer
}

func (r *Relay) Setup(sarama.ConsumerGroupSession) error   { return nil }
func (r *Relay) Cleanup(sarama.ConsumerGroupSession) error { return nil }

func (r *Relay) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error { // want ConsumeClaim:`effects publish:unprotected\(\(sarama.SyncProducer\).SendMessage\)`
	for m := range c.Messages() {
		msg := &sarama.ProducerMessage{Topic: "out", Value: sarama.StringEncoder(m.Value)}
		if _, _, err := r.Producer.SendMessage(msg); err != nil { // want `handler \(\*Relay\).ConsumeClaim: Kafka message sent with no deduplication \(\(\*Relay\).ConsumeClaim -> \(sarama.SyncProducer\).SendMessage\)`
			return err
		}
		s.MarkMessage(m, "")
	}
	return nil
}

var _ sarama.ConsumerGroupHandler = (*Relay)(nil)

// AsyncRelay republishes through an AsyncProducer.
type AsyncRelay struct{ Async sarama.AsyncProducer }

func (r AsyncRelay) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error { // want ConsumeClaim:`effects publish:unprotected\(\(sarama.AsyncProducer\).Input\)`
	for m := range c.Messages() {
		r.Async.Input() <- &sarama.ProducerMessage{Topic: "out", Value: sarama.StringEncoder(m.Value)} // want `handler \(AsyncRelay\).ConsumeClaim: Kafka message sent with no deduplication \(\(AsyncRelay\).ConsumeClaim -> \(sarama.AsyncProducer\).Input\)`
	}
	return nil
}

// Counter only marks messages.
type Counter struct{}

func (Counter) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error {
	for m := range c.Messages() {
		s.MarkMessage(m, "")
	}
	return nil
}

// TxRelay republishes in a producer transaction that also commits the consumed offset:
// exactly once for read_committed consumers.
type TxRelay struct {
	Producer sarama.SyncProducer
	Group    string
}

func (r *TxRelay) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error { // want ConsumeClaim:`effects publish:protected\(\(sarama.SyncProducer\).SendMessage\)`
	for m := range c.Messages() {
		if err := r.Producer.BeginTxn(); err != nil {
			return err
		}
		if _, _, err := r.Producer.SendMessage(&sarama.ProducerMessage{Topic: "out", Value: sarama.StringEncoder(m.Value)}); err != nil {
			r.Producer.AbortTxn()
			return err
		}
		if err := r.Producer.AddMessageToTxn(m, r.Group, nil); err != nil {
			r.Producer.AbortTxn()
			return err
		}
		if err := r.Producer.CommitTxn(); err != nil {
			return err
		}
	}
	return nil
}

// TxNoOffsets produces in a transaction but marks the offset outside it: a crash after the
// commit and before the offset is stored redelivers the message, and it is produced again.
type TxNoOffsets struct{ Producer sarama.SyncProducer }

func (r *TxNoOffsets) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error { // want ConsumeClaim:`effects publish:unprotected\(\(sarama.SyncProducer\).SendMessage\)`
	for m := range c.Messages() {
		if err := r.Producer.BeginTxn(); err != nil {
			return err
		}
		if _, _, err := r.Producer.SendMessage(&sarama.ProducerMessage{Topic: "out", Value: sarama.StringEncoder(m.Value)}); err != nil { // want `handler \(\*TxNoOffsets\).ConsumeClaim: Kafka message sent with no deduplication \(\(\*TxNoOffsets\).ConsumeClaim -> \(sarama.SyncProducer\).SendMessage\); missing: key, enforcement$`
			return err
		}
		if err := r.Producer.CommitTxn(); err != nil {
			return err
		}
		s.MarkMessage(m, "")
	}
	return nil
}

// AsyncTxRelay adds the claim's offsets to an AsyncProducer's transaction.
type AsyncTxRelay struct{ Async sarama.AsyncProducer }

func (r AsyncTxRelay) ConsumeClaim(s sarama.ConsumerGroupSession, c sarama.ConsumerGroupClaim) error { // want ConsumeClaim:`effects publish:protected\(\(sarama.AsyncProducer\).Input\)`
	for m := range c.Messages() {
		_ = r.Async.BeginTxn()
		r.Async.Input() <- &sarama.ProducerMessage{Topic: "out", Value: sarama.StringEncoder(m.Value)}
		offsets := map[string][]*sarama.PartitionOffsetMetadata{m.Topic: {{Partition: m.Partition, Offset: m.Offset + 1}}}
		if err := r.Async.AddOffsetsToTxn(offsets, "group"); err != nil {
			return err
		}
		if err := r.Async.CommitTxn(); err != nil {
			return err
		}
	}
	return nil
}

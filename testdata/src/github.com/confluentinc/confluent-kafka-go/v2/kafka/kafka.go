// Package kafka is a stub of github.com/confluentinc/confluent-kafka-go/v2/kafka: the
// consumer's reads and commits, the producer's produce and transactions.
package kafka

import (
	"context"
	"time"
)

// Offset is a partition offset.
type Offset int64

// TopicPartition names a partition and an offset.
type TopicPartition struct {
	Topic     *string
	Partition int32
	Offset    Offset
	Error     error
}

// Message is a Kafka message.
type Message struct {
	TopicPartition TopicPartition
	Value          []byte
	Key            []byte
	Timestamp      time.Time
}

// String describes the message.
func (m *Message) String() string { return "" }

// Event is what Poll returns.
type Event interface {
	String() string
}

// ConfigValue is a configuration value.
type ConfigValue interface{}

// ConfigMap is a configuration.
type ConfigMap map[string]ConfigValue

// RebalanceCb is called on rebalances.
type RebalanceCb func(*Consumer, Event) error

// ConsumerGroupMetadata is the group metadata for transactions.
type ConsumerGroupMetadata struct{}

// Consumer is a high-level consumer.
type Consumer struct{}

// NewConsumer makes a consumer.
func NewConsumer(conf *ConfigMap) (*Consumer, error) { return &Consumer{}, nil }

// SubscribeTopics subscribes.
func (c *Consumer) SubscribeTopics(topics []string, rebalanceCb RebalanceCb) (err error) {
	return nil
}

// Poll returns the next event.
func (c *Consumer) Poll(timeoutMs int) (event Event) { return nil }

// ReadMessage returns the next message.
func (c *Consumer) ReadMessage(timeout time.Duration) (*Message, error) { return nil, nil }

// Commit commits the current offsets.
func (c *Consumer) Commit() ([]TopicPartition, error) { return nil, nil }

// CommitMessage commits the message's offset.
func (c *Consumer) CommitMessage(m *Message) ([]TopicPartition, error) { return nil, nil }

// StoreMessage stores the message's offset for the next auto-commit.
func (c *Consumer) StoreMessage(m *Message) (storedOffsets []TopicPartition, err error) {
	return nil, nil
}

// Assignment returns the assigned partitions.
func (c *Consumer) Assignment() (partitions []TopicPartition, err error) { return nil, nil }

// Position returns the next offsets.
func (c *Consumer) Position(partitions []TopicPartition) (offsets []TopicPartition, err error) {
	return nil, nil
}

// GetConsumerGroupMetadata returns the group metadata.
func (c *Consumer) GetConsumerGroupMetadata() (*ConsumerGroupMetadata, error) { return nil, nil }

// Close closes the consumer.
func (c *Consumer) Close() (err error) { return nil }

// Producer is a producer.
type Producer struct{}

// NewProducer makes a producer.
func NewProducer(conf *ConfigMap) (*Producer, error) { return &Producer{}, nil }

// Produce produces a message asynchronously.
func (p *Producer) Produce(msg *Message, deliveryChan chan Event) error { return nil }

// ProduceChannel is the channel to produce on.
func (p *Producer) ProduceChannel() chan *Message { return nil }

// Events are the delivery reports.
func (p *Producer) Events() chan Event { return nil }

// Flush waits for outstanding messages.
func (p *Producer) Flush(timeoutMs int) int { return 0 }

// Close closes the producer.
func (p *Producer) Close() {}

// InitTransactions initialises transactions.
func (p *Producer) InitTransactions(ctx context.Context) error { return nil }

// BeginTransaction begins a transaction.
func (p *Producer) BeginTransaction() error { return nil }

// SendOffsetsToTransaction adds the consumer's offsets to the transaction.
func (p *Producer) SendOffsetsToTransaction(ctx context.Context, offsets []TopicPartition, consumerMetadata *ConsumerGroupMetadata) error {
	return nil
}

// CommitTransaction commits the transaction.
func (p *Producer) CommitTransaction(ctx context.Context) error { return nil }

// AbortTransaction aborts it.
func (p *Producer) AbortTransaction(ctx context.Context) error { return nil }

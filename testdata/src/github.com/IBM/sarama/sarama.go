// Package sarama is a stub of github.com/IBM/sarama v1.61.1 for the analyzer
// tests. It declares only what idemlint's models and test packages use, with
// the real signatures; apicheck keeps it in step with the real API.
package sarama

import "context"

// Encoder encodes a message key or value.
type Encoder interface {
	Encode() ([]byte, error)
	Length() int
}

// StringEncoder encodes a string.
type StringEncoder string

// Encode returns the bytes of s.
func (s StringEncoder) Encode() ([]byte, error) { return []byte(s), nil }

// Length returns the length of s.
func (s StringEncoder) Length() int { return len(s) }

// ProducerMessage is a message to produce.
type ProducerMessage struct {
	Topic string
	Key   Encoder
	Value Encoder
}

// ProducerError is a message that failed to produce.
type ProducerError struct {
	Msg *ProducerMessage
	Err error
}

// ProducerTxnStatusFlag is the state of a transactional producer.
type ProducerTxnStatusFlag int16

// PartitionOffsetMetadata is an offset to commit in a transaction.
type PartitionOffsetMetadata struct {
	Partition int32
	Offset    int64
}

// ConsumerGroupMetadata identifies a consumer group generation.
type ConsumerGroupMetadata struct{}

// ConsumerMessage is a consumed message.
type ConsumerMessage struct {
	Key, Value []byte
	Topic      string
	Partition  int32
	Offset     int64
}

// SyncProducer produces messages and waits for their acknowledgement.
type SyncProducer interface {
	SendMessage(msg *ProducerMessage) (partition int32, offset int64, err error)
	SendMessages(msgs []*ProducerMessage) error
	Close() error
	TxnStatus() ProducerTxnStatusFlag
	IsTransactional() bool
	BeginTxn() error
	CommitTxn() error
	AbortTxn() error
	AddOffsetsToTxn(offsets map[string][]*PartitionOffsetMetadata, groupId string) error
	AddOffsetsToTxnWithGroupMetadata(offsets map[string][]*PartitionOffsetMetadata, groupMetadata *ConsumerGroupMetadata) error
	AddMessageToTxn(msg *ConsumerMessage, groupId string, metadata *string) error
	AddMessageToTxnWithGroupMetadata(msg *ConsumerMessage, groupMetadata *ConsumerGroupMetadata, metadata *string) error
}

// AsyncProducer produces the messages sent on its Input channel.
type AsyncProducer interface {
	AsyncClose()
	Close() error
	Input() chan<- *ProducerMessage
	Successes() <-chan *ProducerMessage
	Errors() <-chan *ProducerError
	IsTransactional() bool
	TxnStatus() ProducerTxnStatusFlag
	BeginTxn() error
	CommitTxn() error
	AbortTxn() error
	AddOffsetsToTxn(offsets map[string][]*PartitionOffsetMetadata, groupId string) error
	AddOffsetsToTxnWithGroupMetadata(offsets map[string][]*PartitionOffsetMetadata, groupMetadata *ConsumerGroupMetadata) error
	AddMessageToTxn(msg *ConsumerMessage, groupId string, metadata *string) error
	AddMessageToTxnWithGroupMetadata(msg *ConsumerMessage, groupMetadata *ConsumerGroupMetadata, metadata *string) error
}

// ConsumerGroupSession is one generation of a consumer group member.
type ConsumerGroupSession interface {
	Claims() map[string][]int32
	MemberID() string
	GenerationID() int32
	MarkOffset(topic string, partition int32, offset int64, metadata string)
	Commit()
	ResetOffset(topic string, partition int32, offset int64, metadata string)
	MarkMessage(msg *ConsumerMessage, metadata string)
	Context() context.Context
}

// ConsumerGroupClaim is a partition claimed by the member.
type ConsumerGroupClaim interface {
	Topic() string
	Partition() int32
	InitialOffset() int64
	HighWaterMarkOffset() int64
	Messages() <-chan *ConsumerMessage
}

// ConsumerGroupHandler handles a consumer group's claims: ConsumeClaim is the handler.
type ConsumerGroupHandler interface {
	Setup(ConsumerGroupSession) error
	Cleanup(ConsumerGroupSession) error
	ConsumeClaim(ConsumerGroupSession, ConsumerGroupClaim) error
}

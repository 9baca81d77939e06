// Package kgo is a stub of github.com/twmb/franz-go/pkg/kgo: the consumer's polls and the
// fetch iterators, the producer's calls, transactions and the group transact session.
package kgo

import (
	"context"
	"iter"
)

// Client is a Kafka client: consumer and producer.
type Client struct{}

// Record is a Kafka record.
type Record struct {
	Key       []byte
	Value     []byte
	Topic     string
	Partition int32
	Offset    int64
}

// StringRecord returns a record with a string value.
func StringRecord(value string) *Record { return &Record{Value: []byte(value)} }

// KeyStringRecord returns a record with a string key and value.
func KeyStringRecord(key, value string) *Record {
	return &Record{Key: []byte(key), Value: []byte(value)}
}

// FetchPartition is one partition's records of a fetch.
type FetchPartition struct {
	Partition int32
	Err       error
	Records   []*Record
}

// EachRecord calls fn for each record of the partition.
func (p *FetchPartition) EachRecord(fn func(*Record)) {
	for _, r := range p.Records {
		fn(r)
	}
}

// FetchTopic is one topic's partitions of a fetch.
type FetchTopic struct {
	Topic      string
	Partitions []FetchPartition
}

// EachPartition calls fn for each partition.
func (t *FetchTopic) EachPartition(fn func(FetchPartition)) {
	for _, p := range t.Partitions {
		fn(p)
	}
}

// EachRecord calls fn for each record of the topic.
func (t *FetchTopic) EachRecord(fn func(*Record)) {
	for i := range t.Partitions {
		t.Partitions[i].EachRecord(fn)
	}
}

// Records returns the topic's records.
func (t *FetchTopic) Records() []*Record { return nil }

// Fetch is one broker's response.
type Fetch struct {
	Topics []FetchTopic
}

// Fetches is what a poll returns.
type Fetches []Fetch

// FetchError is a partition's error in a fetch.
type FetchError struct {
	Topic     string
	Partition int32
	Err       error
}

// FetchTopicPartition is a partition with its topic's name.
type FetchTopicPartition struct {
	Topic string
	FetchPartition
}

// Errors returns the fetch errors.
func (fs Fetches) Errors() []FetchError { return nil }

// IsClientClosed reports whether the poll ended because the client closed.
func (fs Fetches) IsClientClosed() bool { return false }

// Err returns the first error.
func (fs Fetches) Err() error { return nil }

// EachError calls fn for each fetch error.
func (fs Fetches) EachError(fn func(string, int32, error)) {}

// RecordIter returns an iterator over the records.
func (fs Fetches) RecordIter() *FetchesRecordIter { return &FetchesRecordIter{} }

// RecordsAll returns the records as a sequence.
func (fs Fetches) RecordsAll() iter.Seq[*Record] { return func(func(*Record) bool) {} }

// EachPartition calls fn for each partition.
func (fs Fetches) EachPartition(fn func(FetchTopicPartition)) {}

// EachTopic calls fn for each topic.
func (fs Fetches) EachTopic(fn func(FetchTopic)) {}

// EachRecord calls fn for each record.
func (fs Fetches) EachRecord(fn func(*Record)) {}

// Records returns every record.
func (fs Fetches) Records() []*Record { return nil }

// Empty reports whether there are no records.
func (fs Fetches) Empty() bool { return true }

// FetchesRecordIter iterates over the records of fetches.
type FetchesRecordIter struct{}

// Done reports whether the iterator is done.
func (i *FetchesRecordIter) Done() bool { return true }

// Next returns the next record.
func (i *FetchesRecordIter) Next() *Record { return nil }

// PollFetches waits for records.
func (cl *Client) PollFetches(ctx context.Context) Fetches { return nil }

// PollRecords waits for at most maxPollRecords records.
func (cl *Client) PollRecords(ctx context.Context, maxPollRecords int) Fetches { return nil }

// CommitRecords commits the given records' offsets.
func (cl *Client) CommitRecords(ctx context.Context, rs ...*Record) error { return nil }

// CommitUncommittedOffsets commits what was polled.
func (cl *Client) CommitUncommittedOffsets(ctx context.Context) error { return nil }

// ProduceResult is one record's result.
type ProduceResult struct {
	Record *Record
	Err    error
}

// ProduceResults are the results of ProduceSync.
type ProduceResults []ProduceResult

// FirstErr returns the first error.
func (rs ProduceResults) FirstErr() error { return nil }

// ProduceSync produces records and waits for them.
func (cl *Client) ProduceSync(ctx context.Context, rs ...*Record) ProduceResults { return nil }

// TryProduce produces a record unless the buffer is full.
func (cl *Client) TryProduce(ctx context.Context, r *Record, promise func(*Record, error)) {}

// Produce produces a record asynchronously.
func (cl *Client) Produce(ctx context.Context, r *Record, promise func(*Record, error)) {}

// Flush waits for buffered records.
func (cl *Client) Flush(ctx context.Context) error { return nil }

// Close closes the client.
func (cl *Client) Close() {}

// TransactionEndTry says whether to commit or abort.
type TransactionEndTry bool

const (
	// TryAbort aborts.
	TryAbort TransactionEndTry = false
	// TryCommit commits.
	TryCommit TransactionEndTry = true
)

// BeginTransaction begins a producer transaction.
func (cl *Client) BeginTransaction() error { return nil }

// EndTransaction ends it.
func (cl *Client) EndTransaction(ctx context.Context, commit TransactionEndTry) error { return nil }

// GroupTransactSession consumes in a group and produces in transactions that commit the
// consumed offsets.
type GroupTransactSession struct{}

// Client returns the session's client.
func (s *GroupTransactSession) Client() *Client { return nil }

// Close closes the session.
func (s *GroupTransactSession) Close() {}

// PollFetches polls.
func (s *GroupTransactSession) PollFetches(ctx context.Context) Fetches { return nil }

// PollRecords polls.
func (s *GroupTransactSession) PollRecords(ctx context.Context, maxPollRecords int) Fetches {
	return nil
}

// ProduceSync produces in the session's transaction.
func (s *GroupTransactSession) ProduceSync(ctx context.Context, rs ...*Record) ProduceResults {
	return nil
}

// Produce produces in the session's transaction.
func (s *GroupTransactSession) Produce(ctx context.Context, r *Record, promise func(*Record, error)) {
}

// TryProduce produces in the session's transaction.
func (s *GroupTransactSession) TryProduce(ctx context.Context, r *Record, promise func(*Record, error)) {
}

// Begin begins a transaction.
func (s *GroupTransactSession) Begin() error { return nil }

// End commits the offsets and ends the transaction.
func (s *GroupTransactSession) End(ctx context.Context, commit TransactionEndTry) (committed bool, err error) {
	return false, nil
}

// Package kgo stands in for github.com/twmb/franz-go/pkg/kgo's producing API (see
// recipestub).
package kgo

import "context"

// Client is a Kafka client; franz-go's producer is idempotent unless
// DisableIdempotentWrite is set.
type Client struct{}

// RecordHeader is a record's header.
type RecordHeader struct {
	Key   string
	Value []byte
}

// Record is a Kafka record (the fields the recipes use).
type Record struct {
	Topic   string
	Key     []byte
	Value   []byte
	Headers []RecordHeader
}

// ProduceResult is one record's result.
type ProduceResult struct {
	Record *Record
	Err    error
}

// ProduceResults are the results of ProduceSync.
type ProduceResults []ProduceResult

// FirstErr returns the first record's error, if any.
func (rs ProduceResults) FirstErr() error {
	for _, r := range rs {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}

// ProduceSync produces records and waits for them.
func (*Client) ProduceSync(ctx context.Context, rs ...*Record) ProduceResults {
	out := make(ProduceResults, len(rs))
	for i, r := range rs {
		out[i].Record = r
	}
	return out
}

// Package kinesis is a stub of github.com/aws/aws-sdk-go-v2/service/kinesis
// v1.57.0 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package kinesis

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/kinesis/types"
)

// Client is the Kinesis client.
type Client struct{}

// Options configures a Client.
type Options struct {
	Region string
}

// GetRecordsInput asks for the records after a shard iterator.
type GetRecordsInput struct {
	ShardIterator *string
	Limit         *int32
}

// GetRecordsOutput holds the records read and the iterator after them.
type GetRecordsOutput struct {
	Records           []types.Record
	NextShardIterator *string
}

// GetRecords reads records of a shard.
func (c *Client) GetRecords(ctx context.Context, params *GetRecordsInput, optFns ...func(*Options)) (*GetRecordsOutput, error) {
	panic("stub")
}

// PutRecordInput is a record to write.
type PutRecordInput struct {
	Data         []byte
	PartitionKey *string
	StreamName   *string
}

// PutRecordOutput is the result of PutRecord.
type PutRecordOutput struct {
	SequenceNumber *string
	ShardId        *string
}

// PutRecord writes a record.
func (c *Client) PutRecord(ctx context.Context, params *PutRecordInput, optFns ...func(*Options)) (*PutRecordOutput, error) {
	panic("stub")
}

// PutRecordsInput is records to write.
type PutRecordsInput struct {
	Records    []types.PutRecordsRequestEntry
	StreamName *string
}

// PutRecordsOutput is the result of PutRecords.
type PutRecordsOutput struct {
	FailedRecordCount *int32
}

// PutRecords writes records.
func (c *Client) PutRecords(ctx context.Context, params *PutRecordsInput, optFns ...func(*Options)) (*PutRecordsOutput, error) {
	panic("stub")
}

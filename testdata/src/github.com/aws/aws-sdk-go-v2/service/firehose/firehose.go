// Package firehose is a stub of github.com/aws/aws-sdk-go-v2/service/firehose
// v1.52.12 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package firehose

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/firehose/types"
)

// Client is the Firehose client.
type Client struct{}

// Options configures a Client.
type Options struct {
	Region string
}

// PutRecordInput is a record to deliver.
type PutRecordInput struct {
	DeliveryStreamName *string
	Record             *types.Record
}

// PutRecordOutput is the result of PutRecord.
type PutRecordOutput struct {
	RecordId *string
}

// PutRecord delivers a record.
func (c *Client) PutRecord(ctx context.Context, params *PutRecordInput, optFns ...func(*Options)) (*PutRecordOutput, error) {
	panic("stub")
}

// PutRecordBatchInput is records to deliver.
type PutRecordBatchInput struct {
	DeliveryStreamName *string
	Records            []types.Record
}

// PutRecordBatchOutput is the result of PutRecordBatch.
type PutRecordBatchOutput struct {
	FailedPutCount *int32
}

// PutRecordBatch delivers records.
func (c *Client) PutRecordBatch(ctx context.Context, params *PutRecordBatchInput, optFns ...func(*Options)) (*PutRecordBatchOutput, error) {
	panic("stub")
}

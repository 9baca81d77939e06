package aws

import (
	"context"
	"database/sql"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/firehose"
	fhtypes "github.com/aws/aws-sdk-go-v2/service/firehose/types"
	"github.com/aws/aws-sdk-go-v2/service/kinesis"
	"github.com/hibiken/asynq"
)

var (
	streams *kinesis.Client
	hose    *firehose.Client
	store   *sql.DB
)

// ReadShard is a Kinesis shard reader: a restart reads the records after its checkpoint
// again, so the loop after GetRecords is a handler; its INSERT is reported.
func ReadShard(ctx context.Context, iterator *string) {
	for iterator != nil {
		out, err := streams.GetRecords(ctx, &kinesis.GetRecordsInput{ShardIterator: iterator})
		if err != nil {
			return
		}
		for _, r := range out.Records {
			_, _ = store.ExecContext(ctx, "INSERT INTO clicks (payload) VALUES ($1)", r.Data) // want `handler receive loop in ReadShard: SQL write not safe to repeat: INSERT without conflict handling`
		}
		iterator = out.NextShardIterator
	}
}

// ReadShardUpsert is its twin keyed by the record's sequence number: a repeat converges.
func ReadShardUpsert(ctx context.Context, iterator *string) {
	for iterator != nil {
		out, err := streams.GetRecords(ctx, &kinesis.GetRecordsInput{ShardIterator: iterator})
		if err != nil {
			return
		}
		for _, r := range out.Records {
			_, _ = store.ExecContext(ctx, "INSERT INTO clicks (seq, payload) VALUES ($1, $2) ON CONFLICT (seq) DO NOTHING", r.SequenceNumber, r.Data)
		}
		iterator = out.NextShardIterator
	}
}

// Track puts a record for each task: a retry puts a second one, which Kinesis keeps.
func Track(ctx context.Context, t *asynq.Task) error { // want Track:`effects publish:unprotected\(\(\*kinesis.Client\).PutRecord\)`
	_, err := streams.PutRecord(ctx, &kinesis.PutRecordInput{Data: t.Payload(), PartitionKey: aws.String("k"), StreamName: aws.String("clicks")}) // want `handler Track: Kinesis record sent with no deduplication \(Track -> \(\*kinesis.Client\).PutRecord\)`
	return err
}

// Deliver hands each task to Firehose: a retry delivers it twice.
func Deliver(ctx context.Context, t *asynq.Task) error { // want Deliver:`effects publish:unprotected\(\(\*firehose.Client\).PutRecordBatch\)`
	_, err := hose.PutRecordBatch(ctx, &firehose.PutRecordBatchInput{DeliveryStreamName: aws.String("audit"), Records: []fhtypes.Record{{Data: t.Payload()}}}) // want `handler Deliver: Firehose record sent with no deduplication`
	return err
}

// Package types is a stub of github.com/aws/aws-sdk-go-v2/service/kinesis/types
// v1.57.0 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package types

// Record is a record read from a shard.
type Record struct {
	Data           []byte
	PartitionKey   *string
	SequenceNumber *string
}

// PutRecordsRequestEntry is one record of a PutRecords call.
type PutRecordsRequestEntry struct {
	Data         []byte
	PartitionKey *string
}

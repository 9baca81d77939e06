// Package types is a stub of github.com/aws/aws-sdk-go-v2/service/firehose/types
// v1.52.12 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package types

// Record is a record to deliver.
type Record struct {
	Data []byte
}

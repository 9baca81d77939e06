// Package types is a stub of github.com/aws/aws-sdk-go-v2/service/sqs/types
// v1.53.0 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package types

// SendMessageBatchRequestEntry is one message of a batch.
type SendMessageBatchRequestEntry struct {
	Id                     *string
	MessageBody            *string
	MessageDeduplicationId *string
	MessageGroupId         *string
}

// Message is a message received from a queue.
type Message struct {
	Body          *string
	MessageId     *string
	ReceiptHandle *string
}

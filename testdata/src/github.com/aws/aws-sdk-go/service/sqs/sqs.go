// Package sqs is a stub of github.com/aws/aws-sdk-go/service/sqs v1.55.8 for
// the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package sqs

import (
	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/request"
)

// SQS is the SQS client.
type SQS struct{}

// SendMessageInput is a message to send. MessageDeduplicationId deduplicates sends to a
// FIFO queue for five minutes.
type SendMessageInput struct {
	MessageBody            *string
	QueueUrl               *string
	MessageDeduplicationId *string
	MessageGroupId         *string
}

// SendMessageOutput is the result of SendMessage.
type SendMessageOutput struct {
	MessageId *string
}

// SendMessage sends a message.
func (c *SQS) SendMessage(input *SendMessageInput) (*SendMessageOutput, error) { panic("stub") }

// SendMessageWithContext sends a message.
func (c *SQS) SendMessageWithContext(ctx aws.Context, input *SendMessageInput, opts ...request.Option) (*SendMessageOutput, error) {
	panic("stub")
}

// SendMessageBatchRequestEntry is one message of a batch.
type SendMessageBatchRequestEntry struct {
	Id                     *string
	MessageBody            *string
	MessageDeduplicationId *string
	MessageGroupId         *string
}

// SendMessageBatchInput is a batch of messages to send.
type SendMessageBatchInput struct {
	Entries  []*SendMessageBatchRequestEntry
	QueueUrl *string
}

// SendMessageBatchOutput is the result of SendMessageBatch.
type SendMessageBatchOutput struct{}

// SendMessageBatch sends up to ten messages.
func (c *SQS) SendMessageBatch(input *SendMessageBatchInput) (*SendMessageBatchOutput, error) {
	panic("stub")
}

// SendMessageBatchWithContext sends up to ten messages.
func (c *SQS) SendMessageBatchWithContext(ctx aws.Context, input *SendMessageBatchInput, opts ...request.Option) (*SendMessageBatchOutput, error) {
	panic("stub")
}

// Message is a received message.
type Message struct {
	Body          *string
	MessageId     *string
	ReceiptHandle *string
}

// ReceiveMessageInput asks for up to MaxNumberOfMessages messages of a queue.
type ReceiveMessageInput struct {
	QueueUrl            *string
	MaxNumberOfMessages *int64
	WaitTimeSeconds     *int64
}

// ReceiveMessageOutput holds the messages received.
type ReceiveMessageOutput struct {
	Messages []*Message
}

// ReceiveMessage receives messages; each stays invisible for the visibility timeout, then
// is delivered again unless deleted.
func (c *SQS) ReceiveMessage(input *ReceiveMessageInput) (*ReceiveMessageOutput, error) {
	panic("stub")
}

// ReceiveMessageWithContext receives messages.
func (c *SQS) ReceiveMessageWithContext(ctx aws.Context, input *ReceiveMessageInput, opts ...request.Option) (*ReceiveMessageOutput, error) {
	panic("stub")
}

// ReceiveMessageRequest returns the request that receives messages, and the output that
// its Send fills in.
func (c *SQS) ReceiveMessageRequest(input *ReceiveMessageInput) (req *request.Request, output *ReceiveMessageOutput) {
	panic("stub")
}

// DeleteMessageInput names the message to delete by its receipt handle.
type DeleteMessageInput struct {
	QueueUrl      *string
	ReceiptHandle *string
}

// DeleteMessageOutput is the result of DeleteMessage.
type DeleteMessageOutput struct{}

// DeleteMessage deletes a received message: it is not delivered again.
func (c *SQS) DeleteMessage(input *DeleteMessageInput) (*DeleteMessageOutput, error) {
	panic("stub")
}

// DeleteMessageWithContext deletes a received message.
func (c *SQS) DeleteMessageWithContext(ctx aws.Context, input *DeleteMessageInput, opts ...request.Option) (*DeleteMessageOutput, error) {
	panic("stub")
}

// DeleteMessageBatchInput names the messages to delete.
type DeleteMessageBatchInput struct {
	QueueUrl *string
}

// DeleteMessageBatchOutput is the result of DeleteMessageBatch.
type DeleteMessageBatchOutput struct{}

// DeleteMessageBatch deletes up to ten received messages.
func (c *SQS) DeleteMessageBatch(input *DeleteMessageBatchInput) (*DeleteMessageBatchOutput, error) {
	panic("stub")
}

// DeleteMessageBatchWithContext deletes up to ten received messages.
func (c *SQS) DeleteMessageBatchWithContext(ctx aws.Context, input *DeleteMessageBatchInput, opts ...request.Option) (*DeleteMessageBatchOutput, error) {
	panic("stub")
}

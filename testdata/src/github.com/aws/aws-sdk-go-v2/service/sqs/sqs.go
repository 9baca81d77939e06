// Package sqs is a stub of github.com/aws/aws-sdk-go-v2/service/sqs v1.53.0
// for the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package sqs

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// Client is the SQS client.
type Client struct{}

// Options configures a Client.
type Options struct {
	Region string
}

// NewFromConfig returns a client.
func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client { panic("stub") }

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
func (c *Client) SendMessage(ctx context.Context, params *SendMessageInput, optFns ...func(*Options)) (*SendMessageOutput, error) {
	panic("stub")
}

// SendMessageBatchInput is a batch of messages to send.
type SendMessageBatchInput struct {
	Entries  []types.SendMessageBatchRequestEntry
	QueueUrl *string
}

// SendMessageBatchOutput is the result of SendMessageBatch.
type SendMessageBatchOutput struct{}

// SendMessageBatch sends up to ten messages.
func (c *Client) SendMessageBatch(ctx context.Context, params *SendMessageBatchInput, optFns ...func(*Options)) (*SendMessageBatchOutput, error) {
	panic("stub")
}

// ReceiveMessageInput asks for up to MaxNumberOfMessages messages of a queue.
type ReceiveMessageInput struct {
	QueueUrl            *string
	MaxNumberOfMessages int32
	WaitTimeSeconds     int32
}

// ReceiveMessageOutput holds the messages received.
type ReceiveMessageOutput struct {
	Messages []types.Message
}

// ReceiveMessage receives messages; each stays invisible for the visibility timeout, then
// is delivered again unless deleted.
func (c *Client) ReceiveMessage(ctx context.Context, params *ReceiveMessageInput, optFns ...func(*Options)) (*ReceiveMessageOutput, error) {
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
func (c *Client) DeleteMessage(ctx context.Context, params *DeleteMessageInput, optFns ...func(*Options)) (*DeleteMessageOutput, error) {
	panic("stub")
}

// DeleteMessageBatchInput names the messages to delete.
type DeleteMessageBatchInput struct {
	QueueUrl *string
}

// DeleteMessageBatchOutput is the result of DeleteMessageBatch.
type DeleteMessageBatchOutput struct{}

// DeleteMessageBatch deletes up to ten received messages.
func (c *Client) DeleteMessageBatch(ctx context.Context, params *DeleteMessageBatchInput, optFns ...func(*Options)) (*DeleteMessageBatchOutput, error) {
	panic("stub")
}

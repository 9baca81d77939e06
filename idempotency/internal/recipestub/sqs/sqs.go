// Package sqs stands in for github.com/aws/aws-sdk-go-v2/service/sqs's SendMessage (see
// recipestub).
package sqs

import "context"

// Client is an SQS client.
type Client struct{}

// Options are a call's options.
type Options struct{}

// SendMessageInput is SendMessage's input (the fields the recipes use).
type SendMessageInput struct {
	QueueUrl               *string
	MessageBody            *string
	MessageGroupId         *string
	MessageDeduplicationId *string
}

// SendMessageOutput is SendMessage's result.
type SendMessageOutput struct{ MessageId *string }

// SendMessage sends a message.
func (*Client) SendMessage(ctx context.Context, params *SendMessageInput, optFns ...func(*Options)) (*SendMessageOutput, error) {
	return &SendMessageOutput{}, nil
}

// Package sns is a stub of github.com/aws/aws-sdk-go-v2/service/sns v1.48.0
// for the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package sns

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
)

// Client is the SNS client.
type Client struct{}

// Options configures a Client.
type Options struct {
	Region string
}

// NewFromConfig returns a client.
func NewFromConfig(cfg aws.Config, optFns ...func(*Options)) *Client { panic("stub") }

// PublishInput is a message to publish. MessageDeduplicationId deduplicates publishes to
// a FIFO topic for five minutes.
type PublishInput struct {
	Message                *string
	MessageDeduplicationId *string
	MessageGroupId         *string
	TopicArn               *string
}

// PublishOutput is the result of Publish.
type PublishOutput struct {
	MessageId *string
}

// Publish publishes a message.
func (c *Client) Publish(ctx context.Context, params *PublishInput, optFns ...func(*Options)) (*PublishOutput, error) {
	panic("stub")
}

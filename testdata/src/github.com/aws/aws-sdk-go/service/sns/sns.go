// Package sns is a stub of github.com/aws/aws-sdk-go/service/sns v1.55.8 for
// the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package sns

import (
	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/request"
)

// SNS is the SNS client.
type SNS struct{}

// PublishInput is a message to publish. MessageDeduplicationId deduplicates publishes to a
// FIFO topic for five minutes.
type PublishInput struct {
	Message                *string
	TopicArn               *string
	MessageDeduplicationId *string
	MessageGroupId         *string
}

// PublishOutput is the result of Publish.
type PublishOutput struct {
	MessageId *string
}

// Publish publishes a message.
func (c *SNS) Publish(input *PublishInput) (*PublishOutput, error) { panic("stub") }

// PublishWithContext publishes a message.
func (c *SNS) PublishWithContext(ctx aws.Context, input *PublishInput, opts ...request.Option) (*PublishOutput, error) {
	panic("stub")
}

// Package ses is a stub of github.com/aws/aws-sdk-go/service/ses v1.55.8 for
// the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package ses

import (
	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/request"
)

// SES is the SES client.
type SES struct{}

// SendEmailInput is a message to send.
type SendEmailInput struct {
	Source *string
}

// SendEmailOutput is the result of SendEmail.
type SendEmailOutput struct{}

// SendEmail sends a message.
func (c *SES) SendEmail(input *SendEmailInput) (*SendEmailOutput, error) { panic("stub") }

// SendEmailWithContext sends a message.
func (c *SES) SendEmailWithContext(ctx aws.Context, input *SendEmailInput, opts ...request.Option) (*SendEmailOutput, error) {
	panic("stub")
}

// SendRawEmailInput is a raw MIME message to send.
type SendRawEmailInput struct {
	Source *string
}

// SendRawEmailOutput is the result of SendRawEmail.
type SendRawEmailOutput struct{}

// SendRawEmail sends a raw message.
func (c *SES) SendRawEmail(input *SendRawEmailInput) (*SendRawEmailOutput, error) {
	panic("stub")
}

// SendRawEmailWithContext sends a raw message.
func (c *SES) SendRawEmailWithContext(ctx aws.Context, input *SendRawEmailInput, opts ...request.Option) (*SendRawEmailOutput, error) {
	panic("stub")
}

// Package ses is a stub of github.com/aws/aws-sdk-go-v2/service/ses v1.43.0
// for the analyzer tests. It declares only what idemlint's models and test
// packages use, with the real signatures; apicheck keeps it in step with the
// real API.
package ses

import "context"

// Client is the SES (v1 API) client.
type Client struct{}

// Options configures a Client.
type Options struct {
	Region string
}

// SendEmailInput is an email to send.
type SendEmailInput struct {
	Source *string
}

// SendEmailOutput is the result of SendEmail.
type SendEmailOutput struct {
	MessageId *string
}

// SendEmail sends an email.
func (c *Client) SendEmail(ctx context.Context, params *SendEmailInput, optFns ...func(*Options)) (*SendEmailOutput, error) {
	panic("stub")
}

// SendRawEmailInput is a raw email to send.
type SendRawEmailInput struct {
	Source *string
}

// SendRawEmailOutput is the result of SendRawEmail.
type SendRawEmailOutput struct {
	MessageId *string
}

// SendRawEmail sends a raw email.
func (c *Client) SendRawEmail(ctx context.Context, params *SendRawEmailInput, optFns ...func(*Options)) (*SendRawEmailOutput, error) {
	panic("stub")
}

// SendTemplatedEmailInput is a templated email to send.
type SendTemplatedEmailInput struct {
	Source   *string
	Template *string
}

// SendTemplatedEmailOutput is the result of SendTemplatedEmail.
type SendTemplatedEmailOutput struct {
	MessageId *string
}

// SendTemplatedEmail sends a templated email.
func (c *Client) SendTemplatedEmail(ctx context.Context, params *SendTemplatedEmailInput, optFns ...func(*Options)) (*SendTemplatedEmailOutput, error) {
	panic("stub")
}

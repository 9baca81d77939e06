// Package sesv2 is a stub of github.com/aws/aws-sdk-go-v2/service/sesv2
// v1.79.9 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package sesv2

import "context"

// Client is the SES (v2 API) client.
type Client struct{}

// Options configures a Client.
type Options struct {
	Region string
}

// SendEmailInput is an email to send.
type SendEmailInput struct {
	FromEmailAddress *string
}

// SendEmailOutput is the result of SendEmail.
type SendEmailOutput struct {
	MessageId *string
}

// SendEmail sends an email.
func (c *Client) SendEmail(ctx context.Context, params *SendEmailInput, optFns ...func(*Options)) (*SendEmailOutput, error) {
	panic("stub")
}

// SendBulkEmailInput is a bulk email to send.
type SendBulkEmailInput struct {
	FromEmailAddress *string
}

// SendBulkEmailOutput is the result of SendBulkEmail.
type SendBulkEmailOutput struct{}

// SendBulkEmail sends an email to many destinations.
func (c *Client) SendBulkEmail(ctx context.Context, params *SendBulkEmailInput, optFns ...func(*Options)) (*SendBulkEmailOutput, error) {
	panic("stub")
}

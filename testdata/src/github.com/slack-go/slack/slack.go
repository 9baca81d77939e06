// Package slack is a stub of github.com/slack-go/slack v0.35.0 for the analyzer
// tests. It declares only what idemlint's models and test packages use, with the
// real signatures; apicheck keeps it in step with the real API.
package slack

import "context"

// Client is a Slack API client.
type Client struct{}

// Option configures a Client.
type Option func(*Client)

// New returns a client for token.
func New(token string, options ...Option) *Client { panic("stub") }

type sendConfig struct{}

// MsgOption configures a message.
type MsgOption func(*sendConfig) error

// Message is a posted message.
type Message struct{}

// MsgOptionText sets a message's text.
func MsgOptionText(text string, escape bool) MsgOption { panic("stub") }

// PostMessage posts a message to a channel.
func (api *Client) PostMessage(channelID string, options ...MsgOption) (string, string, error) {
	panic("stub")
}

// PostMessageContext posts a message to a channel.
func (api *Client) PostMessageContext(ctx context.Context, channelID string, options ...MsgOption) (string, string, error) {
	panic("stub")
}

// PostMessageWithResponse posts a message and returns it.
func (api *Client) PostMessageWithResponse(channelID string, options ...MsgOption) (string, string, Message, error) {
	panic("stub")
}

// PostMessageWithResponseContext posts a message and returns it.
func (api *Client) PostMessageWithResponseContext(ctx context.Context, channelID string, options ...MsgOption) (string, string, Message, error) {
	panic("stub")
}

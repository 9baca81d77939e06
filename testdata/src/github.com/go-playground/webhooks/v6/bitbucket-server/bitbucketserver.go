// Package bitbucketserver is a stub of github.com/go-playground/webhooks/v6/bitbucket-server v6.4.0 for the
// analyzer tests. It declares only what idemlint's models and test packages use, with the
// real signatures; apicheck keeps it in step with the real API.
package bitbucketserver

import "net/http"

// Webhook verifies and parses the provider's webhooks.
type Webhook struct {
	secret string
}

// Event is a hook event type.
type Event string

// Option configures a Webhook.
type Option func(*Webhook) error

// New makes a Webhook.
func New(options ...Option) (*Webhook, error) { panic("stub") }

// Parse verifies and parses the events specified.
func (hook *Webhook) Parse(r *http.Request, events ...Event) (interface{}, error) { panic("stub") }

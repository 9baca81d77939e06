// Package gitlab is a stub of github.com/go-playground/webhooks/v6/gitlab v6.4.0 for the
// analyzer tests. It declares only what idemlint's models and test packages use, with the
// real signatures; apicheck keeps it in step with the real API.
package gitlab

import "net/http"

// Webhook verifies and parses GitLab webhooks.
type Webhook struct {
	secretHash []byte
}

// Event is a GitLab hook event type (the X-Gitlab-Event header).
type Event string

// PushEvents is a push hook.
const PushEvents Event = "Push Hook"

// Option configures a Webhook.
type Option func(*Webhook) error

// New makes a Webhook.
func New(options ...Option) (*Webhook, error) { panic("stub") }

// Parse verifies and parses the events specified.
func (hook Webhook) Parse(r *http.Request, events ...Event) (interface{}, error) { panic("stub") }

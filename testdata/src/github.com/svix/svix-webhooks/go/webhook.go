// Package svix is a stub of github.com/svix/svix-webhooks/go v1.44.0 for the analyzer
// tests. It declares only what idemlint's models and test packages use, with the real
// signatures; apicheck keeps it in step with the real API.
package svix

import "net/http"

// Webhook verifies Svix (Standard Webhooks) signatures.
type Webhook struct {
	key []byte
}

// NewWebhook makes a Webhook of a secret.
func NewWebhook(secret string) (*Webhook, error) { panic("stub") }

// Verify checks the payload's signature against the headers.
func (wh *Webhook) Verify(payload []byte, headers http.Header) error { panic("stub") }

// VerifyIgnoringTimestamp checks the signature, not the timestamp's age.
func (wh *Webhook) VerifyIgnoringTimestamp(payload []byte, headers http.Header) error {
	panic("stub")
}

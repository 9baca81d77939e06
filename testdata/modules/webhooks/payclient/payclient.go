// Package payclient is the payment provider's client: it checks a notification's
// signature and returns what it says, and writes nothing.
package payclient

import "github.com/stripe/stripe-go/v82/webhook"

// Client parses the provider's notifications.
type Client struct{ Secret string }

// ParseNotify checks the signature and returns the order the notification is about.
func (c *Client) ParseNotify(payload []byte, sig string) (string, error) {
	ev, err := webhook.ConstructEvent(payload, sig, c.Secret)
	return ev.ID, err
}

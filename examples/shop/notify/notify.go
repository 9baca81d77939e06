// Package notify tells the outside world about orders: receipts by email
// (wneessen/go-mail) and status calls to partners over HTTP.
package notify

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/wneessen/go-mail"
)

// Notifier sends the shop's emails and partner HTTP calls.
type Notifier struct {
	mail *mail.Client
	http *http.Client
	from string
}

// New returns a Notifier that sends email through mc as from and makes HTTP
// calls with hc.
func New(mc *mail.Client, hc *http.Client, from string) *Notifier {
	return &Notifier{mail: mc, http: hc, from: from}
}

// SendReceipt emails the receipt for an order to the customer. SMTP has no
// deduplication, so every call delivers another email.
func (n *Notifier) SendReceipt(ctx context.Context, to, orderID string) error {
	msg := mail.NewMsg()
	if err := msg.From(n.from); err != nil {
		return fmt.Errorf("notify: receipt sender %q: %w", n.from, err)
	}
	if err := msg.To(to); err != nil {
		return fmt.Errorf("notify: receipt recipient %q: %w", to, err)
	}
	msg.Subject("Your receipt for order " + orderID)
	msg.SetBodyString(mail.TypeTextPlain,
		"Thank you for your order "+orderID+". We will let you know when it ships.\n")

	if err := n.mail.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("notify: send receipt for order %s: %w", orderID, err)
	}
	return nil
}

// PostWebhook delivers a JSON event to a partner's webhook endpoint. The
// event ID travels as the Idempotency-Key header, so the partner can drop a
// redelivery of the same event.
func (n *Notifier) PostWebhook(ctx context.Context, url, eventID string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("notify: build webhook request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", eventID)

	resp, err := n.http.Do(req)
	if err != nil {
		return fmt.Errorf("notify: post webhook %s: %w", eventID, err)
	}
	return checkResponse(resp, "post webhook "+eventID)
}

// PutShipmentStatus replaces the shipment status document at url with body.
// PUT is idempotent (RFC 9110, section 9.2.2): sending it again leaves the
// same state.
func (n *Notifier) PutShipmentStatus(ctx context.Context, url string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("notify: build shipment status request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")

	resp, err := n.http.Do(req)
	if err != nil {
		return fmt.Errorf("notify: put shipment status: %w", err)
	}
	return checkResponse(resp, "put shipment status")
}

// NotifyCarrier posts a pickup notice to the carrier's API with the default
// HTTP client. The request carries no idempotency key. http.Post takes no
// context, so the first parameter is unused.
func (*Notifier) NotifyCarrier(_ context.Context, url string, body []byte) error {
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("notify: notify carrier: %w", err)
	}
	return checkResponse(resp, "notify carrier")
}

// checkResponse drains and closes resp.Body and turns a non-2xx status into
// an error.
func checkResponse(resp *http.Response, what string) error {
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("notify: %s: unexpected status %s", what, resp.Status)
	}
	return nil
}

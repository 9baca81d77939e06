// Package provider is a payment provider's client whose every call is a POST of a signed // want package:"has effects"
// envelope naming the provider's method: a query, a refund.
package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
)

// Client posts envelopes to the provider's gateway.
type Client struct{ base string }

type envelope struct {
	Service string `json:"service"`
	Body    any    `json:"biz_content"`
}

func (c *Client) postEnvelope(ctx context.Context, service string, body any) error { // want postEnvelope:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	b, _ := json.Marshal(envelope{Service: service, Body: body})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/gateway", bytes.NewReader(b))
	_, err := http.DefaultClient.Do(req)
	return err
}

// QueryPayment asks the provider for a payment's state.
func (c *Client) QueryPayment(ctx context.Context, orderNo string) error { // want QueryPayment:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return c.postEnvelope(ctx, "order_query", map[string]string{"order_no": orderNo})
}

// CreateRefund asks the provider to refund a payment.
func (c *Client) CreateRefund(ctx context.Context, orderNo string) error { // want CreateRefund:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return c.postEnvelope(ctx, "order_refund", map[string]string{"order_no": orderNo})
}

// GetOrCreateCustomer looks a customer up and makes one when there is none.
func (c *Client) GetOrCreateCustomer(ctx context.Context, email string) error { // want GetOrCreateCustomer:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return c.postEnvelope(ctx, "customer_ensure", map[string]string{"email": email})
}

// GetPayoutLink gets a payout link, which the provider makes on each call.
func (c *Client) GetPayoutLink(ctx context.Context, orderNo string) error { // want GetPayoutLink:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return c.createPayout(ctx, orderNo)
}

func (c *Client) createPayout(ctx context.Context, orderNo string) error { // want createPayout:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return c.postEnvelope(ctx, "payout_create", map[string]string{"order_no": orderNo})
}

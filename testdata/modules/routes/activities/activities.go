// Package activities calls the order API of this program over HTTP, as a Temporal
// activity calls its own services: a POST to a route whose handler is safe to repeat is
// safe to repeat; one to a route that is not, or to no route of the program, is reported.
package activities

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
)

// Client calls the order service.
type Client struct {
	BaseURL string
	HTTP    *http.Client
}

// UpdateStatus: the route sets an absolute status (converges): not reported.
//
//idemlint:handler
func (c *Client) UpdateStatus(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/orders/"+id+"/status", bytes.NewReader([]byte(`{"Status":"shipped"}`)))
	if err != nil {
		return err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Insert, with the URL made by fmt.Sprintf: the route inserts with ON CONFLICT DO NOTHING.
//
//idemlint:handler
func (c *Client) Insert(ctx context.Context, id string) error {
	url := fmt.Sprintf("%s/orders/%s/insert", c.BaseURL, id)
	resp, err := http.Post(url, "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Touch: a literal route handler that does nothing.
//
//idemlint:handler
func (c *Client) Touch(ctx context.Context, id string) error {
	resp, err := http.Post(c.BaseURL+"/orders/"+id+"/touch", "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Check: the route reads, but adds the amount to a tally in memory: reported.
//
//idemlint:handler
func (c *Client) Check(ctx context.Context, id string) error {
	resp, err := http.Post(c.BaseURL+"/orders/"+id+"/check", "application/x-www-form-urlencoded", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// AddNote: the route appends a row on every call: reported.
//
//idemlint:handler
func (c *Client) AddNote(ctx context.Context, id string) error {
	resp, err := http.Post(c.BaseURL+"/orders/"+id+"/notes", "text/plain", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Partner: no route of the program serves the URL: reported.
//
//idemlint:handler
func (c *Client) Partner(ctx context.Context, id string) error {
	resp, err := http.Post("https://partner.example.com/orders/"+id+"/status/ack", "application/json", nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Wrong method: the status route takes POST only; a PATCH is not served by it: reported.
//
//idemlint:handler
func (c *Client) PatchStatus(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, c.BaseURL+"/orders/"+id+"/status", nil)
	if err != nil {
		return err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

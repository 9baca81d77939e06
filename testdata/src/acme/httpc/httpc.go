// Package httpc is a company's own HTTP client: PostJSON sends a POST with the given
// idempotency key ("" for none).
package httpc

import "context"

type Client struct{}

func (c *Client) PostJSON(ctx context.Context, url string, body any, key string) error { return nil }

func (c *Client) Get(ctx context.Context, url string) error { return nil }

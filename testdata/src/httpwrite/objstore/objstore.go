// Package objstore is an object-storage client funnelling every call into one helper. // want package:"has effects"
//
// The request is built from a method parameter in one helper, returned, and sent by another.
package objstore

import (
	"context"
	"io"
	"net/http"
)

type metadata struct {
	bucket, object string
	body           io.Reader
}

type Client struct {
	endpoint   string
	httpClient *http.Client
	method     string
}

func New(endpoint string) *Client { return &Client{endpoint: endpoint, httpClient: http.DefaultClient} }

// NewRequest builds a request with the caller's method; exported, so its fact says so.
func (c *Client) NewRequest(ctx context.Context, method, bucket, object string, body io.Reader) (*http.Request, error) { // want NewRequest:`builds-request\(param 1\)`
	return c.newRequest(ctx, method, metadata{bucket: bucket, object: object, body: body})
}

func (c *Client) newRequest(ctx context.Context, method string, m metadata) (req *http.Request, err error) { // want newRequest:`builds-request\(param 1\)`
	req, err = http.NewRequestWithContext(ctx, method, c.endpoint+"/"+m.bucket+"/"+m.object, m.body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "objstore")
	return req, nil
}

// Do sends a request its caller built.
func (c *Client) Do(req *http.Request) (*http.Response, error) { // want Do:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[request from param 0\]`
	return c.do(req)
}

func (c *Client) do(req *http.Request) (*http.Response, error) { // want do:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[request from param 0\]`
	return c.httpClient.Do(req)
}

func (c *Client) executeMethod(ctx context.Context, method string, m metadata) (*http.Response, error) { // want executeMethod:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[method from param 1\]`
	var resp *http.Response
	for attempt := 0; attempt < 3; attempt++ {
		req, err := c.newRequest(ctx, method, m)
		if err != nil {
			return nil, err
		}
		resp, err = c.do(req)
		if err == nil {
			break
		}
	}
	return resp, nil
}

// The reads and the converging writes: no effect.
func (c *Client) GetObject(ctx context.Context, bucket, object string) (*http.Response, error) {
	return c.executeMethod(ctx, http.MethodGet, metadata{bucket: bucket, object: object})
}

func (c *Client) BucketExists(ctx context.Context, bucket string) (bool, error) {
	resp, err := c.executeMethod(ctx, http.MethodHead, metadata{bucket: bucket})
	return resp != nil && resp.StatusCode == http.StatusOK, err
}

func (c *Client) ListObjects(ctx context.Context, bucket string) (*http.Response, error) {
	return c.executeMethod(ctx, "GET", metadata{bucket: bucket})
}

func (c *Client) RemoveObject(ctx context.Context, bucket, object string) error {
	_, err := c.executeMethod(ctx, http.MethodDelete, metadata{bucket: bucket, object: object})
	return err
}

func (c *Client) PutObject(ctx context.Context, bucket, object string, body io.Reader) error {
	_, err := c.executeMethod(ctx, http.MethodPut, metadata{bucket: bucket, object: object, body: body})
	return err
}

// A POST (a multi-object delete, a multipart completion) is an effect of its method.
func (c *Client) CompleteUpload(ctx context.Context, bucket, object string) error { // want CompleteUpload:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	_, err := c.executeMethod(ctx, http.MethodPost, metadata{bucket: bucket, object: object})
	return err
}

// A method the code cannot see (a field) is not reported.
func (c *Client) Custom(ctx context.Context, bucket string) error {
	_, err := c.executeMethod(ctx, c.method, metadata{bucket: bucket})
	return err
}

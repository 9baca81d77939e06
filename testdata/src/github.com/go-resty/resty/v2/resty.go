// Package resty is a stub of github.com/go-resty/resty/v2 v2.17.2 for the
// analyzer tests. It declares only what idemlint's models and test packages
// use, with the real signatures; apicheck keeps it in step with the real API.
package resty

import "context"

// Client sends requests.
type Client struct {
	BaseURL string
}

// New returns a client.
func New() *Client { return &Client{} }

// R starts a request.
func (c *Client) R() *Request { return &Request{} }

// Request is a request being built.
type Request struct {
	URL    string
	Method string
}

// Response is the answer to a request.
type Response struct {
	Request *Request
}

// SetContext sets the request's context.
func (r *Request) SetContext(ctx context.Context) *Request { return r }

// SetHeader sets one header.
func (r *Request) SetHeader(header, value string) *Request { return r }

// SetHeaderVerbatim sets one header without canonicalising its name.
func (r *Request) SetHeaderVerbatim(header, value string) *Request { return r }

// SetHeaders sets several headers.
func (r *Request) SetHeaders(headers map[string]string) *Request { return r }

// SetBody sets the request body.
func (r *Request) SetBody(body interface{}) *Request { return r }

// Get sends a GET.
func (r *Request) Get(url string) (*Response, error) { panic("stub") }

// Post sends a POST.
func (r *Request) Post(url string) (*Response, error) { panic("stub") }

// Put sends a PUT.
func (r *Request) Put(url string) (*Response, error) { panic("stub") }

// Patch sends a PATCH.
func (r *Request) Patch(url string) (*Response, error) { panic("stub") }

// Execute sends a request with the given method.
func (r *Request) Execute(method, url string) (*Response, error) { panic("stub") }

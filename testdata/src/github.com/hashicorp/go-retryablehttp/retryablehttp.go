// Package retryablehttp is a stub of github.com/hashicorp/go-retryablehttp
// v0.7.8 for the analyzer tests. It declares only what idemlint's models and
// test packages use, with the real signatures; apicheck keeps it in step with
// the real API.
package retryablehttp

import (
	"net/http"
	"net/url"
)

// Client is an HTTP client that retries failed requests.
type Client struct{}

// NewClient returns a client with the default retry policy.
func NewClient() *Client { panic("stub") }

// Post sends a POST, retried by the client's policy.
func (c *Client) Post(url, bodyType string, body interface{}) (*http.Response, error) {
	panic("stub")
}

// PostForm sends a form POST, retried by the client's policy.
func (c *Client) PostForm(url string, data url.Values) (*http.Response, error) { panic("stub") }

// StandardClient returns an *http.Client that retries through c.
func (c *Client) StandardClient() *http.Client { panic("stub") }

// Post sends a POST with the default client.
func Post(url, bodyType string, body interface{}) (*http.Response, error) { panic("stub") }

// PostForm sends a form POST with the default client.
func PostForm(url string, data url.Values) (*http.Response, error) { panic("stub") }

// Package esapi is a stub of the part of go-elasticsearch's esapi the tests use: an index
// request sent with Do.
package esapi

import (
	"context"
	"io"
	"net/http"
)

// Transport performs requests (an *elasticsearch.Client is one).
type Transport interface {
	Perform(*http.Request) (*http.Response, error)
}

// Response is a response.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       io.ReadCloser
}

// IndexRequest indexes a document: with a DocumentID it is a PUT of that document, without
// one a POST that makes a new document.
type IndexRequest struct {
	Index      string
	DocumentID string

	Body io.Reader

	Refresh string
}

// Do sends the request.
func (r IndexRequest) Do(providedCtx context.Context, transport Transport) (*Response, error) {
	return nil, nil
}

// Package opensearchapi is a stub of github.com/opensearch-project/opensearch-go/v4/opensearchapi:
// the client's Index request.
package opensearchapi

import (
	"context"
	"io"
)

// Client is the OpenSearch API client.
type Client struct{}

// NewDefaultClient returns a client of a local cluster.
func NewDefaultClient() (*Client, error) { return &Client{}, nil }

// IndexReq is an index request: with a DocumentID it is a PUT of that document, without
// one a POST that makes a new document with a new id.
type IndexReq struct {
	Index      string
	DocumentID string
	Body       io.Reader
}

// IndexResp is the answer to an index request.
type IndexResp struct {
	Index  string `json:"_index"`
	ID     string `json:"_id"`
	Result string `json:"result"`
}

// Index indexes a document.
func (c Client) Index(ctx context.Context, req IndexReq) (*IndexResp, error) { return nil, nil }

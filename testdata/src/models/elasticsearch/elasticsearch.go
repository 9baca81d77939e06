// Package elasticsearch exercises the go-elasticsearch model: an index request sent with Do // want package:"has effects"
// makes a new document on every run unless it names the document.
package elasticsearch

import (
	"bytes"
	"context"

	"github.com/elastic/go-elasticsearch/v8/esapi"
	"github.com/hibiken/asynq"
)

// Indexer adds the task's payload as a new document each time it runs.
type Indexer struct{ es esapi.Transport }

func (x *Indexer) ProcessTask(ctx context.Context, t *asynq.Task) error { // want ProcessTask:`effects store.write:unprotected\(\(esapi.IndexRequest\).Do\)`
	req := esapi.IndexRequest{Index: "events", Body: bytes.NewReader(t.Payload())}
	_, err := req.Do(ctx, x.es) // want `handler \(\*Indexer\).ProcessTask: Elasticsearch index request with no document id \(the index makes a new document each time\)`
	return err
}

// ByID names the document after the task: a repeat replaces it.
type ByID struct{ es esapi.Transport }

func (x *ByID) ProcessTask(ctx context.Context, t *asynq.Task) error { // want ProcessTask:`effects store.write:protected\(\(esapi.IndexRequest\).Do\)`
	_, err := esapi.IndexRequest{Index: "events", DocumentID: t.Type(), Body: bytes.NewReader(t.Payload())}.Do(ctx, x.es)
	return err
}

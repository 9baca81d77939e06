// Package opensearch exercises the OpenSearch model: index requests from a handler, with a // want package:"has effects"
// document id from the job, from a UUID, and without one.
package opensearch

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"
)

var client *opensearchapi.Client

// Index indexes the job's document with a generated id: a new document on every run.
func Index(ctx context.Context, t *asynq.Task) error { // want Index:`effects store.write:unprotected\(\(opensearchapi.Client\).Index\)`
	_, err := client.Index(ctx, opensearchapi.IndexReq{Index: "events", Body: strings.NewReader(string(t.Payload()))}) // want `handler Index: OpenSearch index request with no document id \(the index makes a new document each time\) \(Index -> \(opensearchapi.Client\).Index\); missing: key, enforcement$`
	return err
}

// IndexByID indexes it under an id made from the job: a repeat replaces the document.
func IndexByID(ctx context.Context, t *asynq.Task) error { // want IndexByID:`effects store.write:protected\(\(opensearchapi.Client\).Index\)`
	_, err := client.Index(ctx, opensearchapi.IndexReq{Index: "events", DocumentID: "evt-" + t.Type(), Body: strings.NewReader(string(t.Payload()))})
	return err
}

// IndexByUUID indexes it under a new UUID: a new document on every run.
func IndexByUUID(ctx context.Context, t *asynq.Task) error { // want IndexByUUID:`effects store.write:unstable-key\(\(opensearchapi.Client\).Index\)`
	_, err := client.Index(ctx, opensearchapi.IndexReq{Index: "events", DocumentID: uuid.NewString(), Body: strings.NewReader(string(t.Payload()))}) // want `handler IndexByUUID: OpenSearch index request with a key that changes on every retry \(made from uuid.NewString\) \(IndexByUUID -> \(opensearchapi.Client\).Index\); missing: key$`
	return err
}

// Package rowkeys exercises keys taken from the rows a job's query returned: a scheduled // want package:"has effects"
// reindex with no payload names each document after the row it read, through a range over
// the rows and a helper, and a repeat replaces the same documents. A document id taken
// from package state is the same for every job, and stays reported.
package rowkeys

import (
	"bytes"
	"context"

	"github.com/elastic/go-elasticsearch/v8/esapi"
	"github.com/hibiken/asynq"
	"github.com/jmoiron/sqlx"
)

var (
	db *sqlx.DB
	es esapi.Transport
	// cfg is the configuration read at start-up.
	cfg struct{ SummaryID string }
)

type row struct {
	ID   string `db:"id"`
	Data []byte `db:"data"`
}

func index(ctx context.Context, id string, data []byte) error {
	_, err := esapi.IndexRequest{Index: "resources", DocumentID: id, Body: bytes.NewReader(data)}.Do(ctx, es)
	return err
}

// Reindex indexes each row it reads under the row's own id: no finding.
func Reindex(ctx context.Context, _ *asynq.Task) error { // want Reindex:`effects store.write:protected\(\(esapi.IndexRequest\).Do\)`
	var rows []row
	if err := db.SelectContext(ctx, &rows, `SELECT id, data FROM resources WHERE updated_at >= now() - interval '3 hours'`); err != nil {
		return err
	}
	for _, r := range rows {
		if err := index(ctx, r.ID, r.Data); err != nil {
			return err
		}
	}
	return nil
}

// Summarize indexes under an id from package state: reported.
func Summarize(ctx context.Context, _ *asynq.Task) error { // want Summarize:`effects store.write:unstable-key\(\(esapi.IndexRequest\).Do\)`
	return index(ctx, cfg.SummaryID, nil) // want `handler Summarize: Elasticsearch index request with an idempotency key, but the key passed to rowkeys.index is made from nothing the job carries`
}

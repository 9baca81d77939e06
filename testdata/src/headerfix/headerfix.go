// Package headerfix: the Idempotency-Key header fix, offered only with a stable key in scope. // want package:"has effects"
package headerfix

import (
	"bytes"
	"context"
	"net/http"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

var client = &http.Client{}

func notify(ctx context.Context, url, eventID string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

//idemlint:decisions partial=manual-review -- fixture: keeps the skeleton fix out of this test
func HandleShipped(ctx context.Context, t *asynq.Task) error { // want HandleShipped:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return notify(ctx, "https://example.com/hooks", t.Type(), t.Payload()) // want `handler HandleShipped: HTTP POST without an Idempotency-Key header`
}

//idemlint:decisions partial=manual-review -- fixture: keeps the skeleton fix out of this test
func HandleRandom(ctx context.Context, t *asynq.Task) error { // want HandleRandom:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	traceID := uuid.NewString()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://example.com/"+traceID, nil)
	_, err := client.Do(req) // want `handler HandleRandom: HTTP POST without an Idempotency-Key header`
	return err
}

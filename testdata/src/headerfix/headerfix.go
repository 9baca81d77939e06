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

// notifyUser has an entity's ID declared after the event's: the event's is the key.
func notifyUser(ctx context.Context, url, eventID, userID string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/"+userID, bytes.NewReader(body))
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

// syncProfile has only the user's ID: it is offered, as a choice (the message says so).
func syncProfile(ctx context.Context, url, userID, apiKey string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/"+userID+"?k="+apiKey, nil)
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

//idemlint:decisions partial=manual-review -- fixture: keeps the skeleton fix out of this test
func HandleUserEvent(ctx context.Context, t *asynq.Task) error { // want HandleUserEvent:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return notifyUser(ctx, "https://example.com/hooks", t.Type(), string(t.Payload()), nil) // want `handler HandleUserEvent: HTTP POST without an Idempotency-Key header`
}

//idemlint:decisions partial=manual-review -- fixture: keeps the skeleton fix out of this test
func HandleProfileSync(ctx context.Context, t *asynq.Task) error { // want HandleProfileSync:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return syncProfile(ctx, "https://example.com/profiles", string(t.Payload()), "k") // want `handler HandleProfileSync: HTTP POST without an Idempotency-Key header`
}

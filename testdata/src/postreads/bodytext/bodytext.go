// Package bodytext holds POSTs whose whole body is text a helper's caller writes: a // want package:"has effects"
// GraphQL client that sends the JSON its callers format, two calls deep, with reading and
// writing twins.
package bodytext

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

func gqlWithAuth(ctx context.Context, body string, auth bool) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", "https://gql.example.com/gql", strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	if auth {
		req.Header.Set("Authorization", "OAuth token")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

func gql(ctx context.Context, body string) ([]byte, error) {
	return gqlWithAuth(ctx, body, true)
}

// Client sends the text its callers write: its callers decide.
type Client struct{}

// Send posts body.
func (Client) Send(ctx context.Context, body string) error { // want Send:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[body text from param 1\]`
	_, err := gql(ctx, body)
	return err
}

// ClipInfo asks for a clip: the query's only run-time text is a string argument.
func ClipInfo(ctx context.Context, t *asynq.Task) error {
	body := fmt.Sprintf(`{"query": "query{clip(id:\"%s\"){title,createdAt}}"}`, t.Payload())
	_, err := gql(ctx, body)
	return err
}

// RenameClip sends a mutation the same way: a write.
func RenameClip(ctx context.Context, t *asynq.Task) error { // want RenameClip:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	body := fmt.Sprintf(`{"query": "mutation{renameClip(id:\"%s\", title:\"new\"){id}}"}`, t.Payload())
	_, err := gql(ctx, body) // want `handler RenameClip: HTTP POST without an Idempotency-Key header`
	return err
}

// Operation takes the whole operation from the job: it may be a mutation.
func Operation(ctx context.Context, t *asynq.Task) error { // want Operation:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	body := fmt.Sprintf(`{"query": "%s{clip{title}}"}`, t.Payload())
	_, err := gql(ctx, body) // want `handler Operation: HTTP POST without an Idempotency-Key header`
	return err
}

func post(ctx context.Context, payload []byte) error {
	_, err := http.DefaultClient.Post("https://gql.example.com/gql", "application/json", bytes.NewReader(payload))
	return err
}

// Viewer posts a constant shorthand query as bytes: a read.
func Viewer(ctx context.Context, t *asynq.Task) error {
	return post(ctx, []byte(`{"query":"{ viewer { id } }"}`))
}

// Follow posts a constant mutation as bytes: a write.
func Follow(ctx context.Context, t *asynq.Task) error { // want Follow:`effects http.write:unprotected\(\(\*http.Client\).Post\)`
	return post(ctx, []byte(`{"query":"mutation { follow(id: 1) { id } }"}`)) // want `handler Follow: HTTP POST without an Idempotency-Key header`
}

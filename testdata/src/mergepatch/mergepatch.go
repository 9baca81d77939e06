// Package mergepatch holds handlers that PATCH a remote resource through a client's // want package:"has effects"
// do(ctx, method, path, body any). A PATCH whose body is a JSON object (a struct, a pointer
// to one, a map with string keys) is a merge patch: applied twice, it leaves what it did
// once, so it is not reported, whether the object is built in the call or handed on by a
// method of the client. A JSON Patch (an array of operations), a body whose shape is not
// seen, a type that encodes itself, and a POST of the same object stay reported.
package mergepatch

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/hibiken/asynq"
)

type client struct {
	http *http.Client
	base string
}

var c *client

// do sends a request whose JSON body is body.
func (c *client) do(ctx context.Context, method, path string, body any) error { // want do:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[method from param 1\]\[url from param 2\]\[payload from param 3\]`
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// send is do with a body that may be absent, read from its text.
func (c *client) send(ctx context.Context, method, path string, body any) error { // want send:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[method from param 1\]\[url from param 2\]\[payload from param 3\]`
	var rb io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rb = strings.NewReader(string(b))
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rb)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// limits is a user's quota, set whole.
type limits struct {
	TrafficBytes int64  `json:"trafficLimitBytes"`
	ExpireAt     string `json:"expireAt"`
}

// bankConfig is a bank's settings.
type bankConfig struct {
	Updates map[string]any `json:"updates"`
}

// updateUser sets the user's limits.
func (c *client) updateUser(ctx context.Context, id string, l limits) error {
	return c.do(ctx, http.MethodPatch, "/api/users/"+id, l)
}

// configureBank sets the bank's settings.
func (c *client) configureBank(ctx context.Context, id string, cfg *bankConfig) error {
	return c.do(ctx, http.MethodPatch, "/banks/"+id+"/config", cfg)
}

// patchOp is one operation of a JSON Patch.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value string `json:"value"`
}

// addLabel appends a label with a JSON Patch.
func (c *client) addLabel(ctx context.Context, id, label string) error { // want addLabel:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return c.do(ctx, http.MethodPatch, "/items/"+id, []patchOp{{Op: "add", Path: "/labels/-", Value: label}})
}

// tally encodes itself.
type tally struct{ n int }

func (t tally) MarshalJSON() ([]byte, error) { return []byte(`{"increment":1}`), nil }

func provisioned(ctx context.Context, t *asynq.Task) error {
	return c.updateUser(ctx, string(t.Payload()), limits{TrafficBytes: 1 << 30, ExpireAt: "2027-01-01"})
}

func memoryRetained(ctx context.Context, t *asynq.Task) error {
	return c.configureBank(ctx, string(t.Payload()), &bankConfig{Updates: map[string]any{"retain": true}})
}

func extended(ctx context.Context, t *asynq.Task) error {
	return c.send(ctx, http.MethodPatch, "/api/users/"+string(t.Payload()), limits{ExpireAt: "2027-06-01"})
}

func activated(ctx context.Context, t *asynq.Task) error {
	return c.do(ctx, http.MethodPatch, "/accounts/"+string(t.Payload()), map[string]any{"status": "active"})
}

// renamed builds its PATCH itself.
func renamed(ctx context.Context, t *asynq.Task) error {
	b, _ := json.Marshal(map[string]string{"name": string(t.Payload())})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPatch, "https://api.example.com/items/1", bytes.NewReader(b))
	_, err := http.DefaultClient.Do(req)
	return err
}

func labelled(ctx context.Context, t *asynq.Task) error {
	return c.addLabel(ctx, string(t.Payload()), "urgent") // want `handler labelled: HTTP PATCH without an Idempotency-Key header`
}

func counted(ctx context.Context, t *asynq.Task) error {
	return c.do(ctx, http.MethodPatch, "/counters/"+string(t.Payload()), tally{}) // want `handler counted: HTTP PATCH without an Idempotency-Key header`
}

// bumped sends a body whose shape is not seen.
func bumped(ctx context.Context, t *asynq.Task) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPatch, "https://api.example.com/counters/1", strings.NewReader(`{"op":"inc"}`))
	_, err := http.DefaultClient.Do(req) // want `handler bumped: HTTP PATCH without an Idempotency-Key header`
	return err
}

func created(ctx context.Context, t *asynq.Task) error {
	return c.do(ctx, http.MethodPost, "/api/users", limits{TrafficBytes: 1 << 30}) // want `handler created: HTTP POST without an Idempotency-Key header`
}

func register(mux *asynq.ServeMux) {
	mux.HandleFunc("user:provisioned", provisioned)
	mux.HandleFunc("memory:retained", memoryRetained)
	mux.HandleFunc("account:activated", activated)
	mux.HandleFunc("user:extended", extended)
	mux.HandleFunc("item:renamed", renamed)
	mux.HandleFunc("item:labelled", labelled)
	mux.HandleFunc("counter:counted", counted)
	mux.HandleFunc("counter:bumped", bumped)
	mux.HandleFunc("user:created", created)
}

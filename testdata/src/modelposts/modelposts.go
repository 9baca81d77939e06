// Package modelposts exercises POSTs that ask a language or embedding model for an answer: // want package:"has effects"
// a JSON body that names a model and gives it messages, an input or a prompt, whatever the
// URL, marshalled where it is sent or by a client's postJSON(ctx, path, body any) that each
// caller hands its body; or a Gemini URL that names the model (models/{m}:generateContent).
// A body that names a model and nothing to give it (pulling or creating the model) is a
// write, reported, and so is a push through FCM's messages:send.
package modelposts

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/hibiken/asynq"
)

// aiClient is an OpenAI-compatible client whose postJSON sends every request.
type aiClient struct{ base, model string }

func (c aiClient) postJSON(ctx context.Context, path string, body any) error { // want postJSON:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[url from param 1\]\[payload from param 2\]`
	payload, _ := json.Marshal(body)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+path, bytes.NewReader(payload))
	_, err := http.DefaultClient.Do(req)
	return err
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type responsesRequest struct {
	Model string    `json:"model"`
	Input []message `json:"input"`
}

// Recommend asks the model to pick a candidate: no effect.
func Recommend(ctx context.Context, t *asynq.Task) error {
	c := aiClient{base: "https://llm.example.com/v1", model: "small"}
	return c.postJSON(ctx, "/responses", responsesRequest{Model: c.model, Input: []message{{Role: "user", Content: string(t.Payload())}}})
}

// Chat asks with a map body of model and messages: no effect.
func Chat(ctx context.Context, t *asynq.Task) error {
	c := aiClient{base: "https://llm.example.com/v1", model: "small"}
	return c.postJSON(ctx, "/chat/completions", map[string]any{"model": c.model, "messages": []message{{Role: "user", Content: string(t.Payload())}}})
}

// PullModel asks the server to download a model: a write, reported.
func PullModel(ctx context.Context, t *asynq.Task) error { // want PullModel:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	c := aiClient{base: "http://ollama:11434"}
	return c.postJSON(ctx, "/api/pull", map[string]string{"model": string(t.Payload())}) // want `handler PullModel: HTTP POST`
}

type embedRequest struct {
	Model    string   `json:"model"`
	Input    []string `json:"input"`
	Truncate bool     `json:"truncate"`
}

// Embed asks an embedding model for vectors, marshalled where it is sent, to a URL from
// configuration: no effect.
func Embed(ctx context.Context, t *asynq.Task) error {
	payload, _ := json.Marshal(embedRequest{Model: "nomic-embed-text", Input: []string{string(t.Payload())}, Truncate: true})
	_, err := http.Post(embedURL, "application/json", bytes.NewReader(payload))
	return err
}

var embedURL = "http://ollama:11434/api/embed"

type ticket struct {
	Title string `json:"title"`
	Input string `json:"input"`
}

// OpenTicket sends an input with no model: a write, reported.
func OpenTicket(ctx context.Context, t *asynq.Task) error { // want OpenTicket:`effects http.write:unprotected\(http.Post\)`
	payload, _ := json.Marshal(ticket{Title: "x", Input: string(t.Payload())})
	_, err := http.Post("https://desk.example.com/api/tickets", "application/json", bytes.NewReader(payload)) // want `handler OpenTicket: HTTP POST`
	return err
}

// Extract asks Gemini to extract results from a document's text: the model's name is in
// the URL (models/{model}:generateContent), the body gives it contents; it only answers.
// The push it then sends through FCM (messages:send) is a write.
func Extract(ctx context.Context, t *asynq.Task) error { // want Extract:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	model, key, project := "gemini-2.0-flash", "k", "p"
	url := fmt.Sprintf("https://generativelanguage.googleapis.com/v1beta/models/%s:generateContent?key=%s", model, key)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(t.Payload()))
	if _, err := http.DefaultClient.Do(req); err != nil {
		return err
	}
	push, _ := http.NewRequestWithContext(ctx, http.MethodPost, fmt.Sprintf("https://fcm.googleapis.com/v1/projects/%s/messages:send", project), bytes.NewReader(t.Payload()))
	_, err := http.DefaultClient.Do(push) // want `handler Extract: HTTP POST without an Idempotency-Key header`
	return err
}

package postreads

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/hibiken/asynq"
)

// Token requests written by hand: a form text, a JSON body, a refresh grant through
// variables. A form without grant_type (a sign-up) writes.
func TokenFormText(ctx context.Context, t *asynq.Task) error {
	body := "grant_type=client_credentials&client_id=" + url.QueryEscape(t.Type())
	req, _ := http.NewRequestWithContext(ctx, "POST", tokenURL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	_, err := client.Do(req)
	return err
}

func TokenJSON(ctx context.Context, t *asynq.Task) error {
	payload, _ := json.Marshal(map[string]string{"grant_type": "refresh_token", "refresh_token": t.Type()})
	_, err := client.Post(tokenURL, "application/json", bytes.NewReader(payload))
	return err
}

func TokenRefreshVars(ctx context.Context, t *asynq.Task) error {
	form := url.Values{"grant_type": {"refresh_token"}}
	form.Set("refresh_token", t.Type())
	encoded := form.Encode()
	_, err := http.Post(tokenURL, "application/x-www-form-urlencoded", strings.NewReader(encoded))
	return err
}

var tokenURL = "https://auth.example.com/issue"

func InviteFormText(ctx context.Context, t *asynq.Task) error { // want InviteFormText:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	body := "email=" + url.QueryEscape(t.Type()) + "&role=member"
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://example.com/invites", strings.NewReader(body))
	_, err := client.Do(req) // want `handler InviteFormText: HTTP POST without an Idempotency-Key header`
	return err
}

// GraphQL: a query held in a constant with leading white space, a shorthand query built
// through a struct; a mutation in a constant writes.
const ordersQuery = `
	query Orders($first: Int!) {
		orders(first: $first) { id total }
	}`

const cancelMutation = `mutation Cancel($id: ID!) { cancelOrder(id: $id) { id } }`

func GraphQLConstQuery(ctx context.Context, t *asynq.Task) error {
	body, _ := json.Marshal(map[string]any{"query": ordersQuery, "variables": map[string]any{"first": 10}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://shop.example.com/graphql", bytes.NewReader(body))
	_, err := client.Do(req)
	return err
}

func GraphQLShorthand(ctx context.Context, t *asynq.Task) error {
	q := gqlRequest{Query: "{ shop { name } }"}
	body, _ := json.Marshal(&q)
	_, err := client.Post("https://shop.example.com/graphql", "application/json", bytes.NewReader(body))
	return err
}

func GraphQLConstMutation(ctx context.Context, t *asynq.Task) error { // want GraphQLConstMutation:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	body, _ := json.Marshal(map[string]any{"query": cancelMutation, "variables": map[string]any{"id": t.Type()}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://shop.example.com/graphql", bytes.NewReader(body))
	_, err := client.Do(req) // want `handler GraphQLConstMutation: HTTP POST without an Idempotency-Key header`
	return err
}

// A Git LFS batch request: a download asks where the objects are; an upload writes.
type lfsBatch struct {
	Operation string   `json:"operation"`
	Transfers []string `json:"transfers"`
	Objects   []lfsObj `json:"objects"`
}

type lfsObj struct {
	Oid  string `json:"oid"`
	Size int64  `json:"size"`
}

func LFSDownload(ctx context.Context, t *asynq.Task) error {
	body, _ := json.Marshal(lfsBatch{Operation: "download", Transfers: []string{"basic"}, Objects: []lfsObj{{Oid: t.Type()}}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://git.example.com/repo.git/info/lfs/objects/batch", bytes.NewReader(body))
	_, err := client.Do(req)
	return err
}

func LFSDownloadText(ctx context.Context, t *asynq.Task) error {
	_, err := http.Post("https://git.example.com/repo.git/info/lfs/objects/batch", "application/vnd.git-lfs+json",
		strings.NewReader(`{"operation": "download", "transfers": ["basic"], "objects": [{"oid": "`+t.Type()+`", "size": 1}]}`))
	return err
}

func LFSUpload(ctx context.Context, t *asynq.Task) error { // want LFSUpload:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	body, _ := json.Marshal(lfsBatch{Operation: "upload", Objects: []lfsObj{{Oid: t.Type()}}})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://git.example.com/repo.git/info/lfs/objects/batch", bytes.NewReader(body))
	_, err := client.Do(req) // want `handler LFSUpload: HTTP POST without an Idempotency-Key header`
	return err
}

// Logins and token endpoints by their URL path; a registration beside them writes.
func RegistryLogin(ctx context.Context, t *asynq.Task) error {
	body := strings.NewReader(`{"username":"ci","password":"` + t.Type() + `"}`)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, registry+"/v2/users/login", body)
	_, err := client.Do(req)
	return err
}

func ServiceToken(ctx context.Context, t *asynq.Task) error {
	_, err := client.PostForm(fmt.Sprintf("https://%s/oauth/token", t.Type()), url.Values{"client_id": {"worker"}})
	return err
}

func ServiceAuth(ctx context.Context, t *asynq.Task) error {
	_, err := http.Post(registry+"/api/auth", "application/json", strings.NewReader(`{"key":"`+t.Type()+`"}`))
	return err
}

var registry = "https://registry.example.com"

func RegistryRegister(ctx context.Context, t *asynq.Task) error { // want RegistryRegister:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	body := strings.NewReader(`{"username":"ci","password":"` + t.Type() + `"}`)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, registry+"/v2/users", body)
	_, err := client.Do(req) // want `handler RegistryRegister: HTTP POST without an Idempotency-Key header`
	return err
}

// Classification and scanning APIs compute an answer; a report filed beside them writes.
func Classify(ctx context.Context, t *asynq.Task) error {
	_, err := http.Post("https://nlp.example.com/v1/documents/classify", "text/plain", strings.NewReader(string(t.Payload())))
	return err
}

func Scan(ctx context.Context, t *asynq.Task) error {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://av.example.com/api/v2/scan", bytes.NewReader(t.Payload()))
	_, err := client.Do(req)
	return err
}

func FileReport(ctx context.Context, t *asynq.Task) error { // want FileReport:`effects http.write:unprotected\(http.Post\)`
	_, err := http.Post("https://av.example.com/api/v2/reports", "application/json", bytes.NewReader(t.Payload())) // want `handler FileReport: HTTP POST without an Idempotency-Key header \(this call cannot set one\)`
	return err
}

// Query and search endpoints answer what they are asked (a marketplace's extensionquery, an
// index's _search); a saved search made beside them writes.
type Marketplace struct{ BaseURL string }

func (m Marketplace) query(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, "POST", m.BaseURL+"/public/gallery/extensionquery", bytes.NewBuffer(body))
	if err != nil {
		return err
	}
	_, err = client.Do(req)
	return err
}

func SyncExtension(ctx context.Context, t *asynq.Task) error {
	return Marketplace{BaseURL: "https://marketplace.example.com/_apis"}.query(ctx, t.Payload())
}

func SearchOrders(ctx context.Context, t *asynq.Task) error {
	_, err := http.Post("https://search.example.com/orders/_search", "application/json", bytes.NewReader(t.Payload()))
	return err
}

func SaveSearch(ctx context.Context, t *asynq.Task) error { // want SaveSearch:`effects http.write:unprotected\(http.Post\)`
	_, err := http.Post("https://search.example.com/api/savedsearch", "application/json", bytes.NewReader(t.Payload())) // want `handler SaveSearch: HTTP POST without an Idempotency-Key header \(this call cannot set one\)`
	return err
}

package postreads

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/hibiken/asynq"
)

// gameAPI is a GraphQL client whose request helper takes the query from its callers, two
// calls deep (query -> graphQL).
type gameAPI struct{ url string }

func (g gameAPI) graphQL(query string, vars map[string]any) error { // want graphQL:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[body from param 0\]`
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest("POST", g.url, bytes.NewBuffer(body))
	_, err := client.Do(req)
	return err
}

func (g gameAPI) query(ctx context.Context, query string) error { // want query:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[body from param 1\]`
	if query == "" {
		return fmt.Errorf("empty query")
	}
	return g.graphQL(query, nil)
}

const rankingsQuery = `query($id: Int) { worldData { encounter(id: $id) { name } } }`

const tagMutation = `mutation { addTag(name: "x") { id } }`

var game = gameAPI{url: "https://game.example.com/api/v2/client"}

// Rankings passes a query down: the helpers' POST reads.
func Rankings(ctx context.Context, t *asynq.Task) error {
	return game.query(ctx, rankingsQuery)
}

// Tag passes a mutation down the same helpers: a write.
func Tag(ctx context.Context, t *asynq.Task) error { // want Tag:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return game.query(ctx, tagMutation) // want `handler Tag: HTTP POST without an Idempotency-Key header`
}

// node is a JSON-RPC client whose call helper takes the method from its callers.
type node struct{ endpoint string }

type rpcRequest struct {
	Version string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

func (n node) call(method string, params any) error { // want call:`effects http.write:unprotected\(http.Post\)\[body from param 0\]`
	body, err := json.Marshal(rpcRequest{Version: "2.0", Method: method, Params: params})
	if err != nil {
		return err
	}
	_, err = http.Post(n.endpoint, "application/json", bytes.NewReader(body))
	return err
}

var chain = node{endpoint: "https://node.example.com/rpc"}

// Block asks for a block (Casper's chain_get_block: the verb is a middle part).
func Block(ctx context.Context, t *asynq.Task) error {
	return chain.call("chain_get_block", nil)
}

// Deploy puts a deploy: a write.
func Deploy(ctx context.Context, t *asynq.Task) error { // want Deploy:`effects http.write:unprotected\(http.Post\)`
	return chain.call("account_put_deploy", t.Payload()) // want `handler Deploy: HTTP POST without an Idempotency-Key header`
}

// Describe asks a language model to describe an image: an inference API computes an
// answer; the chat message it posts to a team is a write.
func Describe(ctx context.Context, t *asynq.Task) error { // want Describe:`effects http.write:unprotected\(http.Post\)`
	if _, err := http.Post("https://api.openai.com/v1/chat/completions", "application/json", bytes.NewReader(t.Payload())); err != nil {
		return err
	}
	_, err := http.Post("https://slack.com/api/chat.postMessage", "application/json", bytes.NewReader(t.Payload())) // want `handler Describe: HTTP POST without an Idempotency-Key header`
	return err
}

// InstallationToken mints a GitHub App installation token: a read.
func InstallationToken(ctx context.Context, t *asynq.Task) error {
	url := fmt.Sprintf("https://api.github.com/app/installations/%s/access_tokens", t.Payload())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	_, err := client.Do(req)
	return err
}

// bankAPI mints its access token the way a Django REST JWT API does: POST /token/new/ with
// the secrets, and /token/refresh/ with the refresh token; both read.
type bankAPI struct{ base string }

func (b bankAPI) newToken(ctx context.Context, secretID, secretKey string) error {
	body, _ := json.Marshal(map[string]string{"secret_id": secretID, "secret_key": secretKey})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/api/v2/token/new/", bytes.NewReader(body))
	_, err := http.DefaultClient.Do(req)
	return err
}

// SyncAccounts logs in before it reads: no effect.
func SyncAccounts(ctx context.Context, t *asynq.Task) error {
	return bankAPI{base: "https://bank.example.com"}.newToken(ctx, "id", string(t.Payload()))
}

// ListProducts reads a marketplace's products page by page with a POST to /v3/product/list.
func ListProducts(ctx context.Context, t *asynq.Task) error {
	body, _ := json.Marshal(map[string]any{"filter": map[string]any{}, "last_id": string(t.Payload()), "limit": 100})
	_, err := http.Post("https://seller.example.com/v3/product/list", "application/json", bytes.NewReader(body))
	return err
}

// ImportPrices POSTs to /v1/product/import/prices: a write, reported.
func ImportPrices(ctx context.Context, t *asynq.Task) error { // want ImportPrices:`effects http.write:unprotected\(http.Post\)`
	_, err := http.Post("https://seller.example.com/v1/product/import/prices", "application/json", bytes.NewReader(t.Payload())) // want `handler ImportPrices: HTTP POST`
	return err
}

// seller is a marketplace client whose do helper POSTs every call to base+path: each
// caller's path says whether it reads.
type seller struct{ base string }

func (s seller) do(ctx context.Context, path string, payload any) error { // want do:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[url from param 1\]`
	body, _ := json.Marshal(payload)
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.base+path, bytes.NewReader(body))
	_, err := http.DefaultClient.Do(req)
	return err
}

func (s seller) listPostings(ctx context.Context, path string) error { // want listPostings:`effects http.write:unprotected\(\(\*http.Client\).Do\)\[url from param 1\]`
	return s.do(ctx, path, map[string]int{"limit": 1000})
}

// Postings lists two kinds of postings through a helper that passes the path on: reads.
func Postings(ctx context.Context, t *asynq.Task) error {
	s := seller{base: "https://seller.example.com"}
	if err := s.listPostings(ctx, "/v2/posting/fbo/list"); err != nil {
		return err
	}
	return s.do(ctx, "/v3/product/list", map[string]string{"last_id": string(t.Payload())})
}

// Prices reads the prices of products through the helper with a POST to an info path:
// no effect.
func Prices(ctx context.Context, t *asynq.Task) error {
	return seller{base: "https://seller.example.com"}.do(ctx, "/v5/product/info/prices", map[string]string{"last_id": string(t.Payload())})
}

// UpdateInfo changes a product's information: a writing verb after "info", reported.
func UpdateInfo(ctx context.Context, t *asynq.Task) error { // want UpdateInfo:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return seller{base: "https://seller.example.com"}.do(ctx, "/v1/product/info/update", t.Payload()) // want `handler UpdateInfo: HTTP POST`
}

// UpdatePrices sends new prices through the same helper: reported.
func UpdatePrices(ctx context.Context, t *asynq.Task) error { // want UpdatePrices:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	return seller{base: "https://seller.example.com"}.do(ctx, "/v1/product/import/prices", t.Payload()) // want `handler UpdatePrices: HTTP POST`
}

// PostToPath POSTs to a path it is given by its caller: the path is not known, reported.
func PostToPath(ctx context.Context, t *asynq.Task) error { // want PostToPath:`effects http.write:unprotected\(http.Post\)`
	path := string(t.Payload())
	return postTo(path) // want `handler PostToPath: HTTP POST`
}

func postTo(path string) error {
	_, err := http.Post("https://seller.example.com"+path, "application/json", nil)
	return err
}

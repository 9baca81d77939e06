// Package postreads exercises POSTs that read; each has a twin that writes. // want package:"has effects"
package postreads

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/hibiken/asynq"
)

var client = &http.Client{}

// A token grant sent with Do reads; the same form without grant_type signs a user up.
func TokenWithDo(ctx context.Context, t *asynq.Task) error {
	form := url.Values{}
	form.Set("grant_type", "client_credentials")
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://auth.example.com/token", strings.NewReader(form.Encode()))
	_, err := client.Do(req)
	return err
}

func SignupWithDo(ctx context.Context, t *asynq.Task) error { // want SignupWithDo:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	form := url.Values{}
	form.Set("username", "u")
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://example.com/signup", strings.NewReader(form.Encode()))
	_, err := client.Do(req) // want `handler SignupWithDo: HTTP POST without an Idempotency-Key header`
	return err
}

// The project names /access/ticket a read endpoint (a login that mints a ticket).
func Login(ctx context.Context, t *asynq.Task) error {
	base := string(t.Payload())
	_, err := client.Post(base+"/access/ticket", "application/x-www-form-urlencoded", strings.NewReader("username=u"))
	return err
}

func CreateVM(ctx context.Context, t *asynq.Task) error { // want CreateVM:`effects http.write:unprotected\(\(\*http.Client\).Post\)`
	base := string(t.Payload())
	_, err := client.Post(base+"/nodes/vms", "application/x-www-form-urlencoded", strings.NewReader("vmid=1")) // want `handler CreateVM: HTTP POST without an Idempotency-Key header \(this call cannot set one\)`
	return err
}

// A JSON-RPC call of a reading method; sendtoaddress pays.
func BlockCount(ctx context.Context, t *asynq.Task) error {
	_, err := http.Post("http://node:8332/", "application/json",
		strings.NewReader(`{"jsonrpc":"1.0","id":"idem","method":"getblockcount","params":[]}`))
	return err
}

const sendBody = `{"jsonrpc": "1.0", "id": "idem", "method": "sendtoaddress", "params": ["addr", 0.1]}`

func SendCoins(ctx context.Context, t *asynq.Task) error { // want SendCoins:`effects http.write:unprotected\(http.Post\)`
	_, err := http.Post("http://node:8332/", "application/json", bytes.NewBufferString(sendBody)) // want `handler SendCoins: HTTP POST`
	return err
}

// A GraphQL query marshalled from a literal reads; a mutation writes.
func Viewer(ctx context.Context, t *asynq.Task) error {
	body, _ := json.Marshal(map[string]any{"query": "query { viewer { login } }"})
	req, _ := http.NewRequest("POST", "https://api.example.com/graphql", bytes.NewReader(body))
	_, err := client.Do(req)
	return err
}

type gqlRequest struct {
	Query     string         `json:"query"`
	Variables map[string]any `json:"variables"`
}

func Star(ctx context.Context, t *asynq.Task) error { // want Star:`effects http.write:unprotected\(\(\*http.Client\).Do\)`
	body, _ := json.Marshal(gqlRequest{Query: "mutation($id: ID!) { addStar(input: {starrableId: $id}) { clientMutationId } }"})
	req, _ := http.NewRequest("POST", "https://api.example.com/graphql", bytes.NewReader(body))
	_, err := client.Do(req) // want `handler Star: HTTP POST without an Idempotency-Key header`
	return err
}

// Search's Find posts a search; the project names it under reads. Index posts a document.
type Search struct{ base string }

// Find's own POST is an effect of its body; the declaration applies where it is called.
func (s *Search) Find(ctx context.Context, q string) error { // want Find:`effects http.write:unprotected\(http.Post\)`
	_, err := http.Post(s.base+"/v1/q", "application/json", strings.NewReader(q))
	return err
}

func (s *Search) Index(ctx context.Context, doc string) error { // want Index:`effects http.write:unprotected\(http.Post\)`
	_, err := http.Post(s.base+"/_doc", "application/json", strings.NewReader(doc))
	return err
}

func Lookup(ctx context.Context, t *asynq.Task) error {
	s := &Search{base: "http://es:9200"}
	return s.Find(ctx, string(t.Payload()))
}

func Store(ctx context.Context, t *asynq.Task) error { // want Store:`effects http.write:unprotected\(http.Post\)`
	s := &Search{base: "http://es:9200"}
	return s.Index(ctx, string(t.Payload())) // want `handler Store: HTTP POST without an Idempotency-Key header \(this call cannot set one\) \(Store -> \(\*postreads.Search\).Index -> http.Post\)`
}

package requests

import (
	"go/types"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/strval"
)

// TestBodyTextReads checks the reading of request bodies: JSON-RPC calls, batches of them
// and GraphQL documents, with their writing twins.
func TestBodyTextReads(t *testing.T) {
	h := strval.Hole
	for _, tc := range []struct {
		body string
		want bool
	}{
		{`{"jsonrpc":"1.0","id":"x","method":"getblockcount","params":[]}`, true},
		{`{"jsonrpc": "2.0", "method" : "eth_getBalance", "params": ["0x1", "latest"]}`, true},
		{`{"jsonrpc":"2.0","method":"eth_call","params":[]}`, true},
		{`{"jsonrpc":"2.0","method":"eth_sendRawTransaction","params":["` + h + `"]}`, false},
		{`{"jsonrpc":"1.0","method":"sendtoaddress","params":["a", 1]}`, false},
		{`[{"method":"getblockhash"},{"method":"listunspent"}]`, true},
		{`[{"method":"getblockhash"},{"method":"sendmany"}]`, false},
		{`{"method":"` + h + `"}`, false},
		{`{"method":` + h + `}`, false},
		{`{"query":"query Viewer { viewer { login } }"}`, true},
		{`{"query":"{ repository(owner: \"a\") { id } }","variables":` + h + `}`, true},
		{`{"query":"mutation { addStar(input: {}) { clientMutationId } }"}`, false},
		{`{"query":"query { a } mutation { b }"}`, false},
		{`{"query":"` + h + `"}`, false},
		{`{"query": "query{video(id:\"` + h + `\"){title}}"}`, true},
		{`{"query": "query{video(id:` + h + `){title}}"}`, false},
		{`{"query": "` + h + `{video{title}}"}`, false},
		{`{"query": "mutation{rename(id:\"` + h + `\"){id}}"}`, false},
		{`grant_type=client_credentials&scope=read`, true},
		{`client_id=` + h + `&grant_type=refresh_token`, true},
		{`{"grant_type":"client_credentials","client_id":"` + h + `"}`, true},
		{`username=u&password=` + h, false},
		{`email=` + h + `&my_grant_type=x`, false},
		{`{"operation": "download", "objects": [{"oid": "` + h + `"}]}`, true},
		{`{"operation":"upload","objects":[]}`, false},
		{`{"operation":"` + h + `"}`, false},
		{`{"name":"x"}`, false},
		{h, false},
		{"", false},
	} {
		if got := bodyTextReads(tc.body); got != tc.want {
			t.Errorf("bodyTextReads(%q) = %v, want %v", tc.body, got, tc.want)
		}
	}
}

// TestQueryPath checks the query and search endpoints a POST reads from, by the last known
// segment of the URL, and their writing twins.
func TestQueryPath(t *testing.T) {
	h := strval.Hole
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{h + "/public/gallery/extensionquery", true},
		{"https://prometheus/api/v1/query", true},
		{h + "/orders/_search", true},
		{h + "/v2/search/", true},
		{h + "/indexes/products/query?x=1", true},
		{h + "/api/savedsearch", false},
		{h + "/v3/product/list", true},
		{h + "/v2/posting/fbo/list/", true},
		{h + "/v5/product/info/prices", true},
		{h + "/v2/product/info", true},
		{h + "/v1/user/info/update", false},
		{h + "/v1/info/" + h, false},
		{h + "/repo.git/info/lfs/objects/batch", false},
		{h + "/v1/product/import/prices", false},
		{h + "/informational", false},
		{h + "/3.0/lists", false},
		{h + "/list/" + h + "/members", false},
		{h + "/query/" + h, false},
		{h + "/orders", false},
		{"/queryset/create", false},
		{h, false},
		{h + "/api/getInvoices", true},
		{h + "/bot" + h + "/getUpdates", true},
		{"getMe", true},
		{h + "/api/conversations.list", true},
		{h + "/method/users.get", true},
		{h + "/rest/crm.deal.list.json", false},
		{h + "/api/get-user", true},
		{h + "/api/chat.postMessage", false},
		{h + "/bot" + h + "/sendMessage", false},
		{h + "/api/getOrCreateUser", false},
		{h + "/api/fetchAndStore", false},
		{h + "/v1/getaways", false},
		{h + "/api/createInvoice", false},
		{h + "/api/conversations.history", false},
		{"createInvoice", false},
		{"get" + h, false},
	} {
		if got := queryPath(tc.url); got != tc.want {
			t.Errorf("queryPath(%q) = %v, want %v", tc.url, got, tc.want)
		}
	}
}

// TestReadingNames checks what makes a body read by its shape: a page size and a page
// place, in any spelling of snake, kebab or camel case, or a model and what to give it;
// either half alone does not.
func TestReadingNames(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  bool
	}{
		{[]string{"date_from", "limit", "offset"}, true},
		{[]string{"filter", "last_id", "limit"}, true},
		{[]string{"query", "pageSize", "pageToken"}, true},
		{[]string{"page", "per-page"}, true},
		{[]string{"Take", "Skip"}, true},
		{[]string{"limit"}, false},
		{[]string{"page", "name"}, false},
		{[]string{"offset", "amount"}, false},
		{[]string{"name", "price"}, false},
		{[]string{"model", "input", "truncate"}, true},
		{[]string{"Model", "Messages", "max_tokens"}, true},
		{[]string{"model", "prompt"}, true},
		{[]string{"model", "contents"}, true},
		{[]string{"model", "name", "price"}, false},
		{[]string{"input", "channel"}, false},
		{nil, false},
	} {
		if got := readingNames(tc.names); got != tc.want {
			t.Errorf("readingNames(%q) = %v, want %v", tc.names, got, tc.want)
		}
	}
}

// TestJSONFields checks the names encoding/json gives a struct's fields: the tag's, the
// field's, an embedded struct's flattened, and none for unexported, "-" or non-struct types.
func TestJSONFields(t *testing.T) {
	pkg := types.NewPackage("p", "p")
	field := func(name string, typ types.Type, embedded bool) *types.Var {
		return types.NewField(0, pkg, name, typ, embedded)
	}
	str, num := types.Typ[types.String], types.Typ[types.Int]
	page := types.NewNamed(types.NewTypeName(0, pkg, "Page", nil),
		types.NewStruct([]*types.Var{field("Limit", num, false), field("LastID", str, false)}, []string{`json:"limit"`, `json:"last_id,omitempty"`}), nil)
	req := types.NewStruct([]*types.Var{
		field("Filter", str, false), field("secret", str, false), field("Skip", num, false), field("Page", page, true), field("Note", str, false),
	}, []string{`json:"filter"`, `json:"offset"`, `json:"-"`, ``, ``})
	got := strings.Join(jsonFields(types.NewPointer(req), 0), ",")
	if want := "filter,limit,last_id,Note"; got != want {
		t.Errorf("jsonFields = %q, want %q", got, want)
	}
	if jsonFields(nil, 0) != nil || jsonFields(str, 0) != nil {
		t.Error("jsonFields of no type or a string: want none")
	}
}

// endPath takes a POST whose last path segment ends what it names as one whose repeat
// changes nothing, and nothing else.
func TestEndPath(t *testing.T) {
	for u, want := range map[string]bool{
		"https://gmail.googleapis.com/gmail/v1/users/me/stop":                  true,
		"https://oauth2.googleapis.com/revoke?token=" + strval.Hole:            true,
		"https://api.stripe.com/v1/payment_intents/" + strval.Hole + "/cancel": true,
		"https://longrunning.googleapis.com/v1/operations/op1:cancel":          true,
		"/api/files/Delete/":                        true,
		"https://api.example.com/v1/charges":        false,
		"https://api.example.com/v1/stops":          false, // a collection of stops
		"https://api.example.com/v1/cancellations":  false,
		"https://api.example.com/v1/" + strval.Hole: false,
		"https://api.example.com/v1/refund":         false,
		"https://api.example.com/stop/now":          false,
	} {
		if got := endPath(u); got != want {
			t.Errorf("endPath(%q) = %v, want %v", u, got, want)
		}
	}
}

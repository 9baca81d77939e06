// Package requests reads the HTTP requests a sink call sends: the method and the
// Idempotency-Key header of a net/http request, the header a request builder's chain sets
// (resty), the method a helper's caller passes (PassMethod), and the POSTs whose repeat
// changes nothing (Reads: a read endpoint the models name, a token grant, a JSON-RPC read,
// a GraphQL query).
//
// Its input is a Reader (the package's def-use index and the models) with the keys.Scope of the
// call; its output is the call's effect.Effect, made with the caller's keys.Make, or a
// yes/no for the questions the dispatcher asks on its own (Reads, TokenRequest).
package requests

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/routes"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// Reader reads the requests of one package's sink calls.
type Reader struct {
	Defs   *defuse.Index
	Models *model.Entries
	// Routes are the routes the program serves (analyzer.Program.Routes): a POST to one
	// whose handler is safe to repeat is judged by it. Nil outside a program-wide link.
	Routes routes.Table
	// Sent, when set, is told of every POST or PATCH whose URL is in view and that nothing
	// else shows to be safe: the requests a program-wide link could judge by a route.
	Sent func(routes.Request)
}

func (rd Reader) info() *types.Info { return rd.Defs.Info }

// keys judges a header's value: the same judgement as every other key's.
func (rd Reader) keys() keys.Reader { return keys.Reader{Defs: rd.Defs, Models: rd.Models} }

// ToRoute judges a request of method to url (its expression) by the program's own routes
// that serve it: with safe true, every one of them is safe to repeat and detail is the
// effect's; with safe false, detail is what to add to the request's unprotected detail (the
// routes that serve it, not safe to repeat; "" when no route of the program serves it).
func (rd Reader) ToRoute(what, method string, url ast.Expr) (detail string, safe bool) {
	if method == "" || url == nil || (rd.Sent == nil && len(rd.Routes) == 0) {
		return "", false
	}
	req := routes.Request{Method: method, URL: routes.Template(rd.Defs.Text(url))}
	if rd.Sent != nil {
		rd.Sent(req)
	}
	rs := rd.Routes.Match(req.Method, req.URL)
	if len(rs) == 0 {
		return "", false
	}
	names := make([]string, len(rs))
	safe = true
	why := ""
	for i, r := range rs {
		names[i] = r.Pattern() + " (" + r.Handler + ")"
		safe = safe && r.Safe
		if !r.Safe && why == "" {
			why = r.Why
		}
	}
	if safe {
		return what + " to this program's route " + strings.Join(names, ", ") + ", safe to repeat", true
	}
	if why != "" {
		why = ": " + why
	}
	return routes.Unsafe + strings.Join(names, ", ") + ", which is not safe to repeat" + why, false
}

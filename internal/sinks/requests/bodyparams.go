// POSTs whose body takes its GraphQL query or JSON-RPC method from a parameter: a client's
// MakeGraphQLRequest(query string, ...) marshals {"query": query}, an RpcCall(method
// string, ...) marshals Request{Method: method}; and POSTs whose URL ends in a parameter (a
// client's do(ctx, path, payload) sends to c.baseURL + path). Whether the POST reads is the
// callers' to say: each one's constant query, method or path decides (PassReads), as a
// method parameter's callers decide an HTTP method (PassMethod).

package requests

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// BodyParam returns 1 + the index of the string parameter of sc's function that a JSON
// body takes as its GraphQL query or its JSON-RPC method, and which it is; 0 for none. The
// body is json.Marshal of a map or struct literal (through readers, conversions and local
// variables) whose "query" or "method" key or field holds the parameter.
func (rd Reader) BodyParam(body ast.Expr, sc keys.Scope) (int, effect.BodyRead) {
	lit := rd.marshalledLiteral(body)
	if lit == nil {
		return 0, effect.NoBodyRead
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key := rd.elementKey(kv)
		var by effect.BodyRead
		switch {
		case strings.EqualFold(key, "query"):
			by = effect.GraphQLQuery
		case strings.EqualFold(key, "method"):
			by = effect.RPCMethod
		default:
			continue
		}
		if p := rd.methodParam(kv.Value, sc); p != 0 {
			return p, by
		}
	}
	return 0, effect.NoBodyRead
}

// URLPathParam returns 1 + the index of the string parameter of sc's function that ends the
// URL url (c.baseURL + path, directly or through a local variable), or 0: a client's
// do(ctx, path, payload) helper POSTs to whatever path its callers give, and each caller's
// constant path says whether it reads (PassReads).
func (rd Reader) URLPathParam(url ast.Expr, sc keys.Scope) int {
	if url == nil || sc.Func == nil {
		return 0
	}
	e := ast.Unparen(url)
	if v := rd.Defs.RootVar(e); v != nil && len(rd.Defs.Defs(v)) == 1 && rd.Defs.Def(v) != nil {
		e = ast.Unparen(rd.Defs.Def(v)) // u := c.baseURL + path
	}
	if be, ok := e.(*ast.BinaryExpr); ok && be.Op == token.ADD {
		e = ast.Unparen(be.Y) // the last operand of the concatenation
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return 0
	}
	v, _ := rd.info().Uses[id].(*types.Var)
	if v == nil || !defuse.IsString(v.Type()) || len(rd.Defs.Defs(v)) != 0 {
		return 0 // a parameter never assigned in the body
	}
	return keys.ParamIndex(sc, v)
}

// BodyTextParam returns 1 + the index of the string or []byte parameter of sc's function,
// never assigned, that is a body's whole text (through readers, conversions and local
// variables: strings.NewReader(body)), or 0: a gqlRequest(body string) helper POSTs
// whatever text its callers write, and each caller's text says whether it reads (PassReads).
func (rd Reader) BodyTextParam(body ast.Expr, sc keys.Scope) int {
	if body == nil || sc.Func == nil {
		return 0
	}
	info := rd.info()
	param := 0
	rd.Defs.Find(body, defuse.Value, func(x ast.Node) bool { // true: decided
		switch x := x.(type) {
		case *ast.Ident:
			v, _ := info.Uses[x].(*types.Var)
			if v == nil || len(rd.Defs.Defs(v)) != 0 {
				return false // a local variable: its definition is the body
			}
			if defuse.IsString(v.Type()) || defuse.IsBytes(v.Type()) {
				param = keys.ParamIndex(sc, v)
			}
			return true
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
				return false // []byte(s): its operand is the body
			}
			if reader(bodyFunc(info, x)) {
				return false // a reader of its argument
			}
		}
		return true
	}, throughOperand)
	return param
}

// bodyOperand returns the text a body is made of, under the conversions and readers
// around it ([]byte(s), strings.NewReader(s): s).
func (rd Reader) bodyOperand(e ast.Expr) ast.Expr {
	info := rd.info()
	for {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return e
		}
		if tv, ok := info.Types[c.Fun]; !(ok && tv.IsType()) && !reader(bodyFunc(info, c)) {
			return e
		}
		e = c.Args[0]
	}
}

// reader reports whether the function named (bodyFunc) reads its argument as a body.
func reader(name string) bool {
	switch name {
	case "strings.NewReader", "bytes.NewReader", "bytes.NewBufferString", "bytes.NewBuffer", "io.NopCloser":
		return true
	}
	return false
}

// marshalledLiteral returns the literal a request body is json.Marshal of, or nil.
func (rd Reader) marshalledLiteral(body ast.Expr) *ast.CompositeLit {
	arg := rd.marshalledArg(body)
	if arg == nil {
		return nil
	}
	lit, _ := rd.literalOf(arg)
	return lit
}

// PassReads checks, at a call of a function whose POST takes its body's query or method,
// or the end of its URL, from a parameter (e.ReadsParam), or its whole JSON body
// (e.PayloadParam), what the caller (in scope sc) passes there: a GraphQL query, a JSON-RPC
// method that reads, a path of a read endpoint (a login, a query, search or list endpoint),
// or a body that reads by its shape (it pages, or asks a model), or a JSON object a PATCH
// sends (a merge patch, passMergePatch) makes the request no effect; a
// body that carries an idempotency key or a provider's request number keys it (passKey);
// the caller's own parameter passes the question on; anything else (a mutation, a writing
// method, a value not known) keeps the effect. It reports whether the effect is kept.
func (rd Reader) PassReads(args []ast.Expr, e effect.Effect, sc keys.Scope) (effect.Effect, bool) {
	i, by, pi := int(e.ReadsParam)-1, e.ReadsBy, int(e.PayloadParam)-1
	e.ReadsParam, e.ReadsBy, e.PayloadParam = 0, effect.NoBodyRead, 0
	if args == nil {
		return e, true
	}
	if pi >= 0 && pi < len(args) {
		if rd.passMergePatch(args[pi], e) {
			return e, false // do(ctx, http.MethodPatch, path, limits{...}): a merge patch
		}
		reads, p := rd.passPayload(args[pi], sc)
		if reads {
			return e, false // do(ctx, path, request{Limit: 100, Offset: n}): a page, or a model's answer
		}
		if keyed, ok := rd.passKey(args[pi], e, sc); ok {
			return keyed, true // do(ctx, "POST", path, refund{OutRefundNo: no}): the provider's key
		}
		e.PayloadParam = uint8(p)
	}
	if i < 0 || i >= len(args) {
		return e, true
	}
	text := rd.Defs.Text(args[i])
	if by == effect.BodyText {
		text = rd.Defs.Text(rd.bodyOperand(args[i])) // []byte(`{"query": ...}`)
	}
	switch {
	case by == effect.GraphQLQuery && graphQLQuery(text), by == effect.RPCMethod && readMethod(text):
		return e, false
	case by == effect.URLPath && (rd.Models.Index.ReadEndpoint(text) || queryPath(text) || endPath(text)):
		return e, false // do(ctx, "/v3/product/list", filter): a read endpoint; post(ctx, ".../stop"): an end
	case by == effect.BodyText && bodyTextReads(text):
		return e, false // gqlRequest(`{"query": "query{video(id:\"...\"){title}}"}`)
	}
	if by == effect.BodyText {
		if p := rd.BodyTextParam(args[i], sc); p != 0 {
			e.ReadsParam, e.ReadsBy = uint8(p), by
		}
		return e, true
	}
	if p := rd.methodParam(args[i], sc); p != 0 {
		e.ReadsParam, e.ReadsBy = uint8(p), by
	}
	return e, true
}

// POSTs that read: a request sent as POST whose repeat changes nothing, known from its URL
// (a read endpoint the models name), or from its body (an OAuth2 token grant, a JSON-RPC
// call of a reading method, a GraphQL query).

package sinks

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/strval"
)

// postReads reports whether a POST to the URL url with body body (either may be nil) reads.
func (j *Judge) postReads(url, body ast.Expr) bool {
	if url != nil && j.Models.Index.ReadEndpoint(j.Defs.Text(url)) {
		return true
	}
	return body != nil && j.bodyReads(body, 0)
}

// bodyReads reports whether a request body asks only to read: it is built (through local
// variables, readers and []byte conversions) from a token form, a constant JSON-RPC or
// GraphQL text, or json.Marshal of a literal that names such a method or query.
func (j *Judge) bodyReads(e ast.Expr, depth int) bool {
	if e == nil || depth > defuse.MaxDepth {
		return false
	}
	e = ast.Unparen(e)
	info := j.info()
	if id, ok := e.(*ast.Ident); ok {
		if v, _ := info.Uses[id].(*types.Var); v != nil && !v.IsField() {
			if d := j.Defs.Def(v); d != nil {
				return j.bodyReads(d, depth+1)
			}
		}
		return false
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return bodyTextReads(j.Defs.Text(e))
	}
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() && len(call.Args) == 1 { // []byte(s)
		return j.bodyReads(call.Args[0], depth+1)
	}
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	switch fn.Pkg().Path() + "." + fn.Name() {
	case "strings.NewReader", "bytes.NewReader", "bytes.NewBufferString", "bytes.NewBuffer", "io.NopCloser":
		return j.bodyReads(defuse.ArgAt(call, 0), depth+1)
	case "net/url.Encode": // form.Encode()
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			return j.tokenRequest(sel.X)
		}
	case "encoding/json.Marshal":
		return j.literalReads(defuse.ArgAt(call, 0))
	case "fmt.Sprintf":
		return bodyTextReads(j.Defs.Text(call))
	}
	return false
}

// literalReads reports whether the value json.Marshal is given (a map or struct literal, its
// address, or a local variable built from one) names a reading JSON-RPC method or a GraphQL
// query: a "method" or "query" key or field with constant text.
func (j *Judge) literalReads(e ast.Expr) bool {
	e = ast.Unparen(e)
	if v := j.Defs.RootVar(e); v != nil && j.Defs.Def(v) != nil {
		e = ast.Unparen(j.Defs.Def(v))
	}
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key := j.Defs.ConstString(kv.Key)
		if id, ok := kv.Key.(*ast.Ident); ok && key == "" {
			key = id.Name // a struct field
		}
		val := j.Defs.Text(kv.Value)
		switch {
		case strings.EqualFold(key, "method"):
			return readMethod(val)
		case strings.EqualFold(key, "query"):
			return graphQLQuery(val)
		}
	}
	return false
}

// bodyTextReads reports whether a request body's text (holes where it is built at run time)
// is a JSON-RPC request, or a batch of them, whose every method reads, or a GraphQL query.
func bodyTextReads(t string) bool {
	if strings.Trim(t, strval.Hole) == "" {
		return false
	}
	if methods := jsonStrings(t, "method"); len(methods) > 0 {
		for _, m := range methods {
			if !readMethod(m) {
				return false
			}
		}
		return true
	}
	queries := jsonStrings(t, "query")
	return len(queries) == 1 && graphQLQuery(queries[0])
}

// jsonStrings returns the string values of the key in JSON text, escapes kept; a value that
// is not a string literal (a hole: built at run time) is returned as a hole.
func jsonStrings(t, key string) []string {
	var out []string
	q := `"` + key + `"`
	for i := strings.Index(t, q); i >= 0; {
		rest := strings.TrimLeft(t[i+len(q):], " \t\r\n")
		if v, ok := strings.CutPrefix(rest, ":"); ok {
			v = strings.TrimLeft(v, " \t\r\n")
			if s, ok := strings.CutPrefix(v, `"`); ok {
				end := 0
				for end < len(s) && s[end] != '"' {
					if s[end] == '\\' {
						end++
					}
					end++
				}
				out = append(out, s[:min(end, len(s))])
			} else {
				out = append(out, strval.Hole)
			}
		}
		next := strings.Index(t[i+len(q):], q)
		if next < 0 {
			break
		}
		i += len(q) + next
	}
	return out
}

// readMethod reports whether a JSON-RPC method name reads: its last part (after "_", "." or
// "/": eth_getBalance, chain.getBlock) starts with a reading verb, or it is one of the
// Ethereum reads whose names have none.
func readMethod(m string) bool {
	if m == "" || strings.Contains(m, strval.Hole) {
		return false
	}
	switch m {
	case "eth_call", "eth_blockNumber", "eth_chainId", "eth_gasPrice", "net_version", "web3_clientVersion":
		return true
	}
	tail := strings.ToLower(m[strings.LastIndexAny(m, "_./")+1:])
	for _, verb := range readVerbs {
		if strings.HasPrefix(tail, verb) {
			return true
		}
	}
	return false
}

// readVerbs start the names of JSON-RPC methods that read (getblockcount, listunspent).
var readVerbs = []string{"get", "list", "fetch", "query", "search", "find", "read", "describe", "show", "count", "estimate", "lookup"}

// graphQLQuery reports whether GraphQL document text (JSON-escaped, as in a body) is a
// query: its first operation is "query" or the shorthand "{", and it holds no mutation or
// subscription.
func graphQLQuery(doc string) bool {
	if strings.Contains(doc, strval.Hole) {
		return false
	}
	d := strings.TrimLeft(strings.ReplaceAll(strings.ReplaceAll(doc, `\n`, " "), `\t`, " "), " \t\r\n")
	if !strings.HasPrefix(d, "{") && !strings.HasPrefix(d, "query") {
		return false
	}
	for _, w := range strings.FieldsFunc(d, func(r rune) bool { return !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') }) {
		if w == "mutation" || w == "subscription" {
			return false
		}
	}
	return true
}

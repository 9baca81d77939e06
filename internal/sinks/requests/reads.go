// POSTs that read: a request sent as POST whose repeat changes nothing, known from its URL
// (a read endpoint the models name: the built-in ones are login, token, classification and
// scanning paths), or from its body (an OAuth2 token grant, as a form, form text or JSON; a
// JSON-RPC call of a reading method; a GraphQL query; a Git LFS batch download; a body
// that pages or asks a model, shapes.go).

package requests

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/strval"
)

// Reads reports whether a POST to the URL url with body body (either may be nil) changes
// nothing on a repeat: a read endpoint, a query path, an action that ends what it names
// (endPath), or a body that reads (bodyReads) or pages or asks a model (shapes.go).
func (rd Reader) Reads(url, body ast.Expr) bool {
	if url != nil {
		if u := rd.Defs.Text(url); rd.Models.Index.ReadEndpoint(u) || queryPath(u) || endPath(u) {
			return true
		}
	}
	return body != nil && rd.bodyReads(body)
}

// endVerbs are the actions that end or take away what they name: done once, a repeat finds
// it stopped, cancelled, revoked or gone, and the API answers that it is (RFC 7009 has a
// revocation of a token already revoked succeed) or refuses.
var endVerbs = []string{
	"stop", "cancel", "revoke", "close", "archive", "delete", "remove", "unsubscribe",
	"disable", "deactivate", "void", "expire", "unpublish", "unlink", "detach", "logout",
	"signout", "invalidate", "terminate", "suspend",
}

// endPath reports whether the URL text u's last path segment, as far as it is known, is an
// action that ends what it names (endVerbs: "/users/me/stop", "/revoke?token=...",
// "/v1/payment_intents/{id}/cancel", Google's custom method "operations/{id}:cancel").
func endPath(u string) bool {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimSuffix(u, "/")
	seg := u[strings.LastIndex(u, "/")+1:]
	if i := strings.LastIndex(seg, ":"); i >= 0 {
		seg = seg[i+1:]
	}
	return !strings.Contains(seg, strval.Hole) && slices.Contains(endVerbs, strings.ToLower(seg))
}

// queryPath reports whether the URL text u (with holes where it is built at run time) is of
// a query, search or list endpoint: its last path segment, as far as it is known, is or
// ends in "query", or is "search" or "list" ("/api/v1/query", "/_search",
// "/gallery/extensionquery", "/v3/product/list": marketplace APIs list with a POST whose
// body holds the filter and the page): a POST there asks for an answer and changes nothing.
// A segment that only ends in "search" ("/savedsearch") may create something and is not
// one, nor is "/lists" (a mailing API creates a list there). An "info" segment, last or
// followed by one that names what is asked for, asks for information too
// ("/v2/product/info", "/v5/product/info/prices"); "/info/update" does not, nor does a
// deeper path (Git's "/info/lfs/objects/batch" uploads).
func queryPath(u string) bool {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimSuffix(u, "/")
	i := strings.LastIndex(u, "/")
	if i < 0 {
		// A value with no slash is one segment, a method name its caller gives a client
		// that appends it to its base URL (c.base + "/" + method).
		return rpcRead(u)
	}
	seg := strings.ToLower(strings.TrimLeft(u[i+1:], "_"))
	if strings.HasSuffix(seg, "query") || seg == "search" || seg == "list" || seg == "info" {
		return true
	}
	if rpcRead(u[i+1:]) {
		return true
	}
	j := strings.LastIndex(u[:i], "/")
	return j >= 0 && strings.EqualFold(u[j+1:i], "info") && !writeWord(seg)
}

// rpcRead reports whether a URL's last segment names a remote procedure that reads, as
// the APIs that take a method name as the last segment of the path write them (Telegram's
// and Crypto Pay's /getUpdates, /getInvoices; Slack's /conversations.list; VK's
// /users.get; Bitrix24's /crm.deal.list): split into words at '.', '_', '-' and where a
// lower-case letter is followed by an upper-case one, its first word, or the last word
// after a dot (noun.verb), is a reading verb (readVerbs), and none is a writing verb
// (rpcWriteWords) or joins two actions (and, or: getOrCreate). Words are whole:
// "/getaways" names no procedure.
func rpcRead(seg string) bool {
	if seg == "" || strings.Contains(seg, strval.Hole) {
		return false
	}
	w := identWords(seg)
	if len(w) == 0 {
		return false
	}
	for _, x := range w {
		if slices.Contains(rpcWriteWords, x) {
			return false
		}
	}
	if slices.Contains(readVerbs, w[0]) {
		return true
	}
	return strings.Contains(seg, ".") && slices.Contains(readVerbs, w[len(w)-1])
}

// identWords splits an identifier into lower-case words at '.', '_', '-' and at each
// lower-case letter or digit followed by an upper-case one (getInvoices: get, invoices).
func identWords(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		sep := i == len(s) || s[i] == '.' || s[i] == '_' || s[i] == '-'
		camel := !sep && i > start && 'A' <= s[i] && s[i] <= 'Z' && ('a' <= s[i-1] && s[i-1] <= 'z' || '0' <= s[i-1] && s[i-1] <= '9')
		if sep || camel {
			if i > start {
				out = append(out, strings.ToLower(s[start:i]))
			}
			start = i
			if sep {
				start = i + 1
			}
		}
	}
	return out
}

// rpcWriteWords are the words that make a procedure's name one that may write: the
// writing verbs of JSON-RPC methods and those of actions, and the conjunctions of two.
var rpcWriteWords = append([]string{
	"import", "save", "store", "upsert", "apply", "run", "execute", "trigger", "start", "stop",
	"cancel", "pay", "charge", "refund", "mark", "register", "upload", "edit", "modify",
	"change", "reset", "enqueue", "publish", "notify", "process", "sync", "approve", "close",
	"open", "revoke", "ban", "kick", "pin", "forward", "copy", "answer", "leave", "restrict",
	"promote", "and", "or",
}, writeVerbs...)

// writeWord reports whether a path segment starts with a writing verb (writeVerbs, and
// "import"), or is built at run time, and so may be anything.
func writeWord(seg string) bool {
	if strings.Contains(seg, strval.Hole) || strings.HasPrefix(seg, "import") {
		return true
	}
	for _, verb := range writeVerbs {
		if strings.HasPrefix(seg, verb) {
			return true
		}
	}
	return false
}

// bodyReads reports whether a request body asks only to read: it is built (through local
// variables, readers and []byte conversions) from a token form, a token form's or a
// constant JSON-RPC, GraphQL or Git LFS download text, or json.Marshal of a literal that
// names such a method, query, grant or operation.
func (rd Reader) bodyReads(e ast.Expr) bool {
	info := rd.info()
	reads := false
	rd.Defs.Find(e, defuse.Value, func(x ast.Node) bool { // true: decided, as reads says
		switch x := x.(type) {
		case *ast.Ident:
			return false // a variable: its definition is the body
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
				return false // []byte(s): its operand is the body
			}
			if reader(bodyFunc(info, x)) {
				return false // a reader of its argument
			}
			switch bodyFunc(info, x) {
			case "net/url.Encode": // form.Encode()
				if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
					reads = rd.TokenRequest(sel.X)
				}
			case "encoding/json.Marshal":
				arg := defuse.ArgAt(x, 0)
				reads = rd.literalReads(arg) || rd.valueReads(arg)
			case "fmt.Sprintf":
				reads = bodyTextReads(rd.Defs.Text(x))
			}
			return true
		}
		reads = bodyTextReads(rd.Defs.Text(x.(ast.Expr)))
		return true
	}, throughOperand)
	return reads
}

// throughOperand has a body's search follow a conversion or a reader to its operand, the
// call's first argument.
var throughOperand = defuse.Through(func(x ast.Expr) []ast.Expr {
	if c, ok := x.(*ast.CallExpr); ok && len(c.Args) > 0 {
		return []ast.Expr{c.Args[0]}
	}
	return nil
})

// bodyFunc names the function a call of a body's construction calls ("bytes.NewReader"), or
// "" for a function value or a conversion.
func bodyFunc(info *types.Info, call *ast.CallExpr) string {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	return fn.Pkg().Path() + "." + fn.Name()
}

// literalReads reports whether the value json.Marshal is given (a map or struct literal, its
// address, or a local variable built from one) names a reading JSON-RPC method, a GraphQL
// query, a token grant or a Git LFS download: a "method", "query" or "operation" key or
// field with constant text, or a "grant_type" key.
func (rd Reader) literalReads(e ast.Expr) bool {
	lit, _ := rd.literalOf(e)
	if lit == nil {
		return false
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key := rd.elementKey(kv)
		val := rd.Defs.Text(kv.Value)
		switch {
		case strings.EqualFold(key, "method"):
			return readMethod(val)
		case strings.EqualFold(key, "query"):
			return graphQLQuery(val)
		case strings.EqualFold(key, "operation"):
			return val == "download"
		case key == "grant_type" || key == "GrantType":
			return true
		}
	}
	return false
}

// literalOf returns the composite literal e is (through parentheses and &), or the one the
// local variable e names is defined by, with that variable (nil for a literal given
// directly); nil when e is neither.
func (rd Reader) literalOf(e ast.Expr) (*ast.CompositeLit, *types.Var) {
	e = ast.Unparen(e)
	v := rd.Defs.RootVar(e)
	if v != nil && rd.Defs.Def(v) != nil {
		e = ast.Unparen(rd.Defs.Def(v))
	} else {
		v = nil
	}
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit, v
}

// elementKey names a literal element's key: a map key's constant text, or a struct field.
func (rd Reader) elementKey(kv *ast.KeyValueExpr) string {
	key := rd.Defs.ConstString(kv.Key)
	if id, ok := kv.Key.(*ast.Ident); ok && key == "" {
		key = id.Name // a struct field
	}
	return key
}

// bodyTextReads reports whether a request body's text (holes where it is built at run time)
// is a JSON-RPC request, or a batch of them, whose every method reads, a GraphQL query, a
// token request (a grant_type form field or JSON key) or a Git LFS batch download.
func bodyTextReads(t string) bool {
	if strings.Trim(t, strval.Hole) == "" {
		return false
	}
	if strings.HasPrefix(t, "grant_type=") || strings.Contains(t, "&grant_type=") || len(jsonStrings(t, "grant_type")) > 0 {
		return true // OAuth2 (RFC 6749 section 4): a retry gets another token
	}
	if ops := jsonStrings(t, "operation"); len(ops) == 1 {
		return ops[0] == "download" // Git LFS batch API: where to fetch the objects
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

// readMethod reports whether a JSON-RPC method name reads: one of its parts (split at "_",
// "." or "/": eth_getBalance, chain.getBlock, Casper's chain_get_block and
// query_global_state) starts with a reading verb and none with a writing one
// (account_put_deploy, eth_sendRawTransaction), or it is one of the Ethereum reads whose
// names have none.
func readMethod(m string) bool {
	if m == "" || strings.Contains(m, strval.Hole) {
		return false
	}
	switch m {
	case "eth_call", "eth_blockNumber", "eth_chainId", "eth_gasPrice", "net_version", "web3_clientVersion":
		return true
	}
	reads := false
	for _, part := range strings.FieldsFunc(strings.ToLower(m), func(r rune) bool { return r == '_' || r == '.' || r == '/' }) {
		for _, verb := range writeVerbs {
			if strings.HasPrefix(part, verb) {
				return false
			}
		}
		for _, verb := range readVerbs {
			reads = reads || strings.HasPrefix(part, verb)
		}
	}
	return reads
}

// readVerbs start the names of JSON-RPC methods that read (getblockcount, listunspent);
// writeVerbs those of methods that change something (sendrawtransaction, put_deploy).
var (
	readVerbs  = []string{"get", "list", "fetch", "query", "search", "find", "read", "describe", "show", "count", "estimate", "lookup"}
	writeVerbs = []string{"put", "send", "submit", "create", "set", "add", "delete", "remove", "update", "insert", "write", "post", "transfer", "mint", "burn", "sign"}
)

// graphQLQuery reports whether GraphQL document text (JSON-escaped, as in a body) is a
// query: its first operation is "query" or the shorthand "{", and it holds no mutation or
// subscription. Text built at run time may only fill a string argument
// (video(id:\"%s\")): a value there cannot turn the query into a mutation, a hole anywhere
// else can.
func graphQLQuery(doc string) bool {
	if strings.Contains(strings.ReplaceAll(doc, `\"`+strval.Hole+`\"`, `\"\"`), strval.Hole) {
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

// TokenRequest reports whether form (url.Values) asks for a token: it has a grant_type
// field (OAuth2, RFC 6749 section 4), in its literal, the literal its variable was built
// from, or set on the variable (form.Set("grant_type", ...)). A token request reads: a
// retry gets another token and changes nothing.
func (rd Reader) TokenRequest(form ast.Expr) bool {
	if form == nil {
		return false
	}
	isGrant := func(k ast.Expr) bool { return rd.Defs.ConstString(k) == "grant_type" }
	lit := ast.Unparen(form)
	v := rd.Defs.RootVar(form)
	if v != nil {
		lit = ast.Unparen(rd.Defs.Def(v))
	}
	if cl, ok := lit.(*ast.CompositeLit); ok {
		for _, elt := range cl.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok && isGrant(kv.Key) {
				return true
			}
		}
	}
	if v == nil {
		return false
	}
	for _, c := range rd.Defs.CallsOn(v) {
		sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if (sel.Sel.Name == "Set" || sel.Sel.Name == "Add") && len(c.Args) == 2 && isGrant(c.Args[0]) {
			return true
		}
	}
	for _, as := range rd.Defs.FieldSets(v) {
		for _, l := range as.Lhs {
			if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && isGrant(ix.Index) {
				return true
			}
		}
	}
	return false
}

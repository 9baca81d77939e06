// HTTP writes: the method and Idempotency-Key header of a net/http request, and the header
// set in a request builder's chain (resty).

package requests

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// Request reads the method of the request a call sends from where it was built, and
// looks for an Idempotency-Key header set on it.
func (rd Reader) Request(mk keys.Make, reqExpr ast.Expr, sc keys.Scope) *effect.Effect {
	if reqExpr == nil {
		return nil
	}
	b := rd.readRequest(reqExpr, sc)
	what, ok := b.write()
	if !ok {
		return nil
	}
	e := rd.headerEffect(mk, what, b, sc)
	e.MethodParam, e.RequestParam = uint8(b.methodParam), uint8(b.requestParam)
	if e.State == effect.Unprotected {
		e.ReadsParam, e.ReadsBy, e.PayloadParam = uint8(b.readsParam), b.readsBy, uint8(b.payloadParam)
	}
	return e
}

// built is what idemlint knows of a request where it is sent or returned: its method (a
// constant, or the parameter of the scope's function that holds it), the parameter that is
// the request itself (a do(req) helper's), whether it reads, and where its header is set.
type built struct {
	method       string // upper case; "" when not known
	methodParam  int    // 1 + the index of the scope's string parameter that holds the method
	requestParam int    // 1 + the index of the scope's *http.Request parameter it is
	reads        bool   // its URL or body says it reads (Reads)
	merges       bool   // a PATCH whose body is a JSON object: a merge patch (mergePatch)
	// readsParam is 1 + the index of the scope's string parameter its JSON body takes as
	// its GraphQL query or JSON-RPC method (readsBy says which): its callers say whether it
	// reads (BodyParam).
	readsParam int
	readsBy    effect.BodyRead
	// payloadParam is 1 + the index of the scope's interface parameter its JSON body
	// marshals: its callers say whether it reads by its shape (PayloadParam).
	payloadParam int
	v            *types.Var
	// header is the Idempotency-Key header the helper that built it (helper) set.
	header effect.Header
	helper string
	// body is the idempotency key its JSON body carries, if any (bodykey.go).
	body    bodyKey
	hasBody bool
	// url is the expression of the URL it was built with, where in view.
	url ast.Expr
}

// write returns the words of a request's effect ("HTTP POST"; "HTTP request" while its
// callers decide the method) and whether it is one: a POST or PATCH that does not read, or a
// method (or request) a caller passes. GET, HEAD, PUT, DELETE and OPTIONS are idempotent
// (RFC 9110); a method not known at compile time is not reported (docs/caveats.md).
func (b built) write() (string, bool) {
	switch {
	case b.reads:
		return "", false // a token grant, a JSON-RPC read, a GraphQL query, a read endpoint
	case b.merges:
		return "", false // a merge patch: applied twice, it leaves what it did once
	case b.method == "POST" || b.method == "PATCH":
		return "HTTP " + b.method, true
	case b.method == "" && (b.methodParam != 0 || b.requestParam != 0):
		// A helper that takes the method (do(ctx, method, path)) or the request (do(req)):
		// the effect is only as real as what its callers pass there (PassMethod, PassRequest).
		return "HTTP " + methodUnknown, true
	}
	return "", false
}

// readRequest reads the request expression e (a local variable, or the expression that
// builds it) in scope sc: built by http.NewRequest* or &http.Request{Method: ...}, returned
// by a helper that builds it (sc.Built), or the scope's own parameter.
func (rd Reader) readRequest(e ast.Expr, sc keys.Scope) built {
	v := rd.Defs.RootVar(e)
	src := ast.Unparen(e)
	if v != nil {
		src = ast.Unparen(rd.Defs.Def(v))
	}
	return rd.readBuilt(v, src, sc)
}

// readBuilt reads a request held by v (nil: none) and built by src (nil: not known).
func (rd Reader) readBuilt(v *types.Var, src ast.Expr, sc keys.Scope) built {
	b := built{v: v}
	var methodExpr, urlExpr, bodyExpr ast.Expr
	switch src := src.(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(rd.info(), src).(*types.Func)
		switch {
		case fn == nil:
		case fn.Pkg() != nil && fn.Pkg().Path() == "net/http":
			at := -1
			switch fn.Name() {
			case "NewRequest":
				at = 0
			case "NewRequestWithContext":
				at = 1
			}
			if at >= 0 {
				methodExpr, urlExpr, bodyExpr = defuse.ArgAt(src, at), defuse.ArgAt(src, at+1), defuse.ArgAt(src, at+2)
			}
		case sc.Built != nil:
			// req, err := c.newRequest(ctx, method, path): what the helper puts in it.
			if r := sc.Built(fn.Origin()); r != nil {
				b.method, b.reads, b.header, b.helper = r.Method, r.Reads, r.Header, effect.FuncName(fn, nil)
				if r.MethodParam != 0 {
					methodExpr = defuse.ArgAt(src, int(r.MethodParam)-1)
				}
			}
		}
	case *ast.UnaryExpr: // &http.Request{Method: ...}
		if lit, ok := ast.Unparen(src.X).(*ast.CompositeLit); ok {
			methodExpr, _ = defuse.FieldValue(lit, "Method")
		}
	case nil:
		// The request is the scope's parameter, never assigned: its callers built it.
		if v != nil && len(rd.Defs.Defs(v)) == 0 && isRequest(v.Type()) {
			b.requestParam = keys.ParamIndex(sc, v)
		}
	}
	if methodExpr != nil {
		b.method = strings.ToUpper(rd.Defs.ConstString(methodExpr))
		if b.method == "" {
			b.methodParam = rd.methodParam(methodExpr, sc)
		}
	}
	if urlExpr != nil || bodyExpr != nil {
		b.reads = b.reads || rd.Reads(urlExpr, bodyExpr)
	}
	if !b.reads && bodyExpr != nil {
		b.readsParam, b.readsBy = rd.BodyParam(bodyExpr, sc)
	}
	if !b.reads && b.readsParam == 0 {
		if p := rd.URLPathParam(urlExpr, sc); p != 0 {
			b.readsParam, b.readsBy = p, effect.URLPath
		}
	}
	if !b.reads && b.readsParam == 0 {
		if p := rd.BodyTextParam(bodyExpr, sc); p != 0 {
			b.readsParam, b.readsBy = p, effect.BodyText
		}
	}
	b.merges = b.method == "PATCH" && bodyExpr != nil && rd.mergePatch(bodyExpr)
	if !b.reads {
		b.payloadParam = rd.PayloadParam(bodyExpr, sc)
	}
	b.url = urlExpr
	if bodyExpr != nil {
		b.body, b.hasBody = rd.bodyKeyOf(bodyExpr)
	}
	return b
}

// isRequest reports whether t is *net/http.Request.
func isRequest(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http" && n.Obj().Name() == "Request"
}

// headerEffect makes the effect of request b (what: "HTTP POST") from the Idempotency-Key
// header set on its variable in this function, or by the helper that built it.
func (rd Reader) headerEffect(mk keys.Make, what string, b built, sc keys.Scope) *effect.Effect {
	if b.v != nil {
		if key, name, ok := rd.namedHeaderKey(b.v); ok {
			if model.DeliveryHeader(name) {
				return rd.keys().NamedHeader(mk, what, "delivery id header "+name, key, sc)
			}
			if !isIdempotencyHeader(name) && name != "" {
				return rd.keys().NamedHeader(mk, what, "signed delivery id header "+name, key, sc)
			}
			return rd.keys().Header(mk, what, key, sc)
		}
	}
	switch b.header {
	case effect.StableHeader:
		return mk(effect.Protected, what+" with an Idempotency-Key header (set by "+b.helper+")")
	case effect.UnstableHeader:
		return mk(effect.UnstableKey, "Idempotency-Key header set by "+b.helper+" does not identify the job")
	}
	if b.hasBody {
		return rd.bodyKeyed(mk, what, b.body, sc)
	}
	d, safe := rd.ToRoute(what, b.method, b.url)
	if safe {
		return mk(effect.Protected, d)
	}
	return mk(effect.Unprotected, what+" without an Idempotency-Key header"+d)
}

// methodUnknown stands for the method in the detail of an effect whose method is a
// parameter; PassMethod puts the method a caller passes in its place.
const methodUnknown = "request"

// methodParam returns 1 + the index of the string parameter of the declared function of sc
// that e is (directly, or through local variables assigned once: m := method), or 0.
func (rd Reader) methodParam(e ast.Expr, sc keys.Scope) int {
	if e == nil || sc.Func == nil {
		return 0
	}
	param := 0
	rd.Defs.Find(e, defuse.Value, func(x ast.Node) bool {
		id, ok := x.(*ast.Ident)
		if !ok {
			return false
		}
		if v, _ := rd.info().Uses[id].(*types.Var); v != nil && defuse.IsString(v.Type()) {
			param = keys.ParamIndex(sc, v)
		}
		return param != 0
	})
	return param
}

// PassMethod checks, at a call of a function that sends a request with the method its
// parameter holds (e.MethodParam), what the caller (in scope sc) passes there (args, the
// call's arguments in parameter order; nil for a function value): a constant POST or PATCH
// makes the effect real, another constant makes it none, the caller's own parameter passes
// the question on; anything else is not known, and not reported (as for a method not known
// at compile time). It reports whether the effect is kept.
func (rd Reader) PassMethod(args []ast.Expr, e effect.Effect, sc keys.Scope) (effect.Effect, bool) {
	i := int(e.MethodParam) - 1
	e.MethodParam = 0
	if args == nil || i >= len(args) {
		return e, false
	}
	arg := args[i]
	switch method := strings.ToUpper(rd.Defs.ConstString(arg)); method {
	case "POST", "PATCH":
		e.Detail = strings.Replace(e.Detail, "HTTP "+methodUnknown, "HTTP "+method, 1)
		return e, true
	case "":
		if p := rd.methodParam(arg, sc); p != 0 {
			e.MethodParam = uint8(p)
			return e, true
		}
	}
	return e, false
}

// PassRequest checks, at a call of a function that sends the request its parameter holds
// (e.RequestParam: a do(req) helper), the request the caller (in scope sc) passes there,
// read as a sink call's request is: built with POST or PATCH, the effect is real (with the
// header the caller sets on it, when the helper sets none); built with another method, or
// reading, it is none; built from the caller's method parameter, or the caller's own
// request parameter, the question goes on to its callers; anything else is not known, and
// not reported. It reports whether the effect is kept.
func (rd Reader) PassRequest(args []ast.Expr, e effect.Effect, sc keys.Scope) (effect.Effect, bool) {
	i := int(e.RequestParam) - 1
	e.RequestParam = 0
	if args == nil || i >= len(args) {
		return e, false
	}
	b := rd.readRequest(args[i], sc)
	what, ok := b.write()
	if !ok {
		return e, false
	}
	if e.State == effect.Unprotected {
		// The helper sets no header: the caller's, or its builder's, decides.
		mk := func(st effect.State, detail string) *effect.Effect {
			c := e
			c.State, c.Detail = st, detail
			return &c
		}
		e = *rd.headerEffect(mk, what, b, sc)
		if e.State == effect.Unprotected {
			e.ReadsParam, e.ReadsBy, e.PayloadParam = uint8(b.readsParam), b.readsBy, uint8(b.payloadParam)
		}
	} else {
		e.Detail = strings.Replace(e.Detail, "HTTP "+methodUnknown, what, 1)
	}
	e.MethodParam, e.RequestParam = uint8(b.methodParam), uint8(b.requestParam)
	return e, true
}

// ReturnedRequest says what a function (its body, signature and scope sc) returns of an
// HTTP request it builds, its first result, or nil: read, as a sink call's request is, from
// the first return statement whose first result says something of it (its method, or the
// parameter that holds it).
func (rd Reader) ReturnedRequest(body *ast.BlockStmt, sig *types.Signature, sc keys.Scope) *effect.Request {
	if body == nil || sig == nil || sig.Results().Len() == 0 || !isRequest(sig.Results().At(0).Type()) {
		return nil
	}
	var out *effect.Request
	ast.Inspect(body, func(x ast.Node) bool {
		if out != nil {
			return false
		}
		if _, ok := x.(*ast.FuncLit); ok {
			return false // a literal's returns are not the function's
		}
		ret, ok := x.(*ast.ReturnStmt)
		if !ok {
			return true
		}
		var b built
		switch {
		case len(ret.Results) > 0:
			b = rd.readRequest(ret.Results[0], sc)
		case sig.Results().At(0).Name() != "":
			// A bare return of the named result.
			v := sig.Results().At(0)
			b = rd.readBuilt(v, ast.Unparen(rd.Defs.Def(v)), sc)
		}
		if b.method == "" && b.methodParam == 0 {
			return false
		}
		out = &effect.Request{Method: b.method, MethodParam: uint8(b.methodParam), Reads: b.reads || b.merges, Header: b.header}
		if b.v != nil {
			if key, ok := rd.headerKey(b.v); ok {
				out.Header = effect.UnstableHeader
				if rd.keys().Judge([]ast.Expr{key}, sc).Problem == keys.Stable {
					out.Header = effect.StableHeader
				}
			}
		}
		return false
	})
	return out
}

// ChainHeaderKey finds the value of an idempotency header set by a header setter in the
// receiver chain of a builder call (client.R().SetHeader("Idempotency-Key", k).Post(u)),
// in the chains assigned to the local variables it starts from, or called on the variable
// at its root (req.SetHeader(...) as a statement of its own).
func (rd Reader) ChainHeaderKey(call *ast.CallExpr) (ast.Expr, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	var key ast.Expr
	setter := func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(rd.info(), c).(*types.Func)
		if !ok || !rd.Models.Of(fn).HeaderSetter {
			return false
		}
		k, ok := rd.setHeaderValue(c)
		if ok {
			key = k
		}
		return ok
	}
	if rd.Defs.Find(sel.X, defuse.Fills, setter) {
		return key, true
	}
	if v := rd.Defs.RootVar(sel.X); v != nil {
		for _, c := range rd.Defs.CallsOn(v) {
			if c != call && setter(c) {
				return key, true
			}
		}
	}
	return nil, false
}

// setHeaderValue returns the value a header setter call gives an idempotency header:
// SetHeader("Idempotency-Key", k), or SetHeaders(map[string]string{"Idempotency-Key": k})
// with the map a literal or a local variable built from one (or assigned h["..."] = k).
func (rd Reader) setHeaderValue(c *ast.CallExpr) (ast.Expr, bool) {
	switch len(c.Args) {
	case 2:
		if isIdempotencyHeader(rd.Defs.ConstString(c.Args[0])) {
			return c.Args[1], true
		}
	case 1:
		m := ast.Unparen(c.Args[0])
		v := rd.Defs.RootVar(m)
		if v != nil {
			m = ast.Unparen(rd.Defs.Def(v))
		}
		if lit, ok := m.(*ast.CompositeLit); ok {
			for _, elt := range lit.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok && isIdempotencyHeader(rd.Defs.ConstString(kv.Key)) {
					return kv.Value, true
				}
			}
		}
		if v != nil {
			if val, ok := rd.indexSet(v, func(ast.Expr) bool { return true }); ok {
				return val, true
			}
		}
	}
	return nil, false
}

// indexSet finds an assignment v...[k] = x to an idempotency header k, on an indexed
// expression that onIndexed accepts, and returns x.
func (rd Reader) indexSet(v *types.Var, onIndexed func(ast.Expr) bool) (ast.Expr, bool) {
	for _, as := range rd.Defs.FieldSets(v) {
		for i, l := range as.Lhs {
			ix, ok := ast.Unparen(l).(*ast.IndexExpr)
			if ok && i < len(as.Rhs) && onIndexed(ix.X) && isIdempotencyHeader(rd.Defs.ConstString(ix.Index)) {
				return as.Rhs[i], true
			}
		}
	}
	return nil, false
}

// headerKey finds the value of an idempotency header set on request variable v:
// v.Header.Set(k, x), v.Header.Add(k, x) or v.Header[k] = []string{x}.
func (rd Reader) headerKey(v *types.Var) (ast.Expr, bool) {
	key, _, ok := rd.namedHeaderKey(v)
	return key, ok
}

// namedHeaderKey is headerKey, with the header's name as the code writes it ("" for an
// index assignment, read as an Idempotency-Key header).
func (rd Reader) namedHeaderKey(v *types.Var) (ast.Expr, string, bool) {
	for _, c := range rd.Defs.CallsOn(v) {
		sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if (sel.Sel.Name == "Set" || sel.Sel.Name == "Add") && len(c.Args) == 2 && isHeaderField(sel.X) {
			if name := rd.Defs.ConstString(c.Args[0]); isIdempotencyHeader(name) {
				return c.Args[1], name, true
			}
		}
	}
	if h, ok := signedDelivery(rd.headersSet(v)); ok {
		return h.val, h.name, true // a signed webhook's own delivery header (signedwebhooks.go)
	}
	val, ok := rd.indexSet(v, isHeaderField)
	if !ok {
		return nil, "", false
	}
	if lit, ok := ast.Unparen(val).(*ast.CompositeLit); ok && len(lit.Elts) > 0 {
		val = lit.Elts[0]
	}
	return val, "", true
}

func isHeaderField(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Header"
}

// isIdempotencyHeader reports whether a header carries a request's key: an idempotency
// header, or one that names a webhook's delivery (model.DeliveryHeader).
func isIdempotencyHeader(name string) bool {
	for _, h := range model.IdempotencyHeaders {
		if strings.EqualFold(name, h) {
			return true
		}
	}
	return model.DeliveryHeader(name)
}

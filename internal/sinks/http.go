// HTTP writes: the method and Idempotency-Key header of a net/http request, and the header
// set in a request builder's chain (resty).

package sinks

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// httpEffect reads the method of the request a call sends from where it was built, and
// looks for an Idempotency-Key header set on it.
func (j *Judge) httpEffect(mk mkEffect, reqExpr ast.Expr, sc Scope) *effect.Effect {
	if reqExpr == nil {
		return nil
	}
	info := j.info()
	v := j.Defs.RootVar(reqExpr)
	src := ast.Unparen(reqExpr)
	if v != nil {
		src = ast.Unparen(j.Defs.Def(v))
	}
	var methodExpr, urlExpr, bodyExpr ast.Expr
	switch src := src.(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, src).(*types.Func)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "net/http" {
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
		}
	case *ast.UnaryExpr: // &http.Request{Method: ...}
		if lit, ok := ast.Unparen(src.X).(*ast.CompositeLit); ok {
			methodExpr, _ = defuse.FieldValue(lit, "Method")
		}
	}
	method := strings.ToUpper(j.Defs.ConstString(methodExpr))
	param := 0
	if method == "" {
		// A helper that takes the method (do(ctx, method, path)): the effect is only as
		// real as what its callers pass there (PassMethod).
		if param = j.methodParam(methodExpr, sc); param != 0 {
			method = methodUnknown
		}
	}
	if method != "POST" && method != "PATCH" && method != methodUnknown {
		// GET, HEAD, PUT, DELETE, OPTIONS are idempotent (RFC 9110); a method not known
		// at compile time is not reported (docs/caveats.md).
		return nil
	}
	if j.postReads(urlExpr, bodyExpr) {
		return nil // a login, a token grant, a JSON-RPC read, a GraphQL query
	}
	var e *effect.Effect
	var key ast.Expr
	ok := false
	if v != nil {
		key, ok = j.headerKey(v)
	}
	if ok {
		e = j.headerEffect(mk, "HTTP "+method, key, sc)
	} else {
		e = mk(effect.Unprotected, "HTTP "+method+" without an Idempotency-Key header")
	}
	e.MethodParam = uint8(param)
	return e
}

// methodUnknown stands for the method in the detail of an effect whose method is a
// parameter; PassMethod puts the method a caller passes in its place.
const methodUnknown = "request"

// methodParam returns 1 + the index of the string parameter of the declared function of sc
// that e is (directly, or through a local variable assigned once), or 0.
func (j *Judge) methodParam(e ast.Expr, sc Scope) int {
	if e == nil || sc.Func == nil {
		return 0
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return 0
	}
	info := j.info()
	v, _ := info.Uses[id].(*types.Var)
	if v == nil {
		return 0
	}
	if d, ok := ast.Unparen(j.Defs.Def(v)).(*ast.Ident); ok { // m := method
		if w, _ := info.Uses[d].(*types.Var); w != nil {
			v = w
		}
	}
	if !defuse.IsString(v.Type()) {
		return 0
	}
	return paramIndex(sc, v)
}

// paramIndex returns 1 + the index of v among the parameters of sc's declared function (the
// first 255), or 0: the form Effect.MethodParam and TextParam record it in.
func paramIndex(sc Scope, v *types.Var) int {
	if sc.Func == nil {
		return 0
	}
	params := sc.Func.Signature().Params()
	for i := 0; i < params.Len() && i < 255; i++ {
		if params.At(i) == v {
			return i + 1
		}
	}
	return 0
}

// PassMethod checks, at a call of a function that sends a request with the method its
// parameter holds (e.MethodParam), what the caller (in scope sc) passes there (args, the
// call's arguments in parameter order; nil for a function value): a constant POST or PATCH
// makes the effect real, another constant makes it none, the caller's own parameter passes
// the question on; anything else is not known, and not reported (as for a method not known
// at compile time). It reports whether the effect is kept.
func (j *Judge) PassMethod(args []ast.Expr, e effect.Effect, sc Scope) (effect.Effect, bool) {
	i := int(e.MethodParam) - 1
	e.MethodParam = 0
	if args == nil || i >= len(args) {
		return e, false
	}
	arg := args[i]
	switch method := strings.ToUpper(j.Defs.ConstString(arg)); method {
	case "POST", "PATCH":
		e.Detail = strings.Replace(e.Detail, "HTTP "+methodUnknown, "HTTP "+method, 1)
		return e, true
	case "":
		if p := j.methodParam(arg, sc); p != 0 {
			e.MethodParam = uint8(p)
			return e, true
		}
	}
	return e, false
}

// headerEffect judges a request (what: "HTTP POST") by the value of its idempotency header.
func (j *Judge) headerEffect(mk mkEffect, what string, key ast.Expr, sc Scope) *effect.Effect {
	if p := j.JudgeKeys([]ast.Expr{key}, sc); p.Problem != KeyStable {
		return mk(effect.UnstableKey, "Idempotency-Key header "+p.headerText())
	}
	e := mk(effect.Protected, what+" with an Idempotency-Key header")
	e.KeyParams = j.keyParams(key, sc)
	return e
}

// builderEffect judges the end of a builder chain: a query builder guarded by a chain guard
// or guard type, or a request builder (resty) guarded by an idempotency header set by a
// header setter in its chain. With an Arg, the sink takes the HTTP method as that argument
// and only POST and PATCH are effects (an unknown method is not reported, as for http.do).
func (j *Judge) builderEffect(mk mkEffect, s *model.Sink, call *ast.CallExpr, sc Scope) *effect.Effect {
	if s.Arg >= 0 {
		method := strings.ToUpper(j.Defs.ConstString(defuse.ArgAt(call, s.Arg)))
		if method != "POST" && method != "PATCH" {
			return nil
		}
		named := *s
		named.What = "HTTP " + method
		s = &named
	}
	if s.Kind == effect.HTTPWrite && s.URLArg >= 0 && j.postReads(defuse.ArgAt(call, s.URLArg), nil) {
		return nil
	}
	if j.chainGuarded(call) {
		return mk(effect.Protected, s.What+" with conflict handling")
	}
	if key, ok := j.chainHeaderKey(call); ok {
		return j.headerEffect(mk, s.What, key, sc)
	}
	return mk(effect.Unprotected, s.Problem())
}

// chainHeaderKey finds the value of an idempotency header set by a header setter in the
// receiver chain of a builder call (client.R().SetHeader("Idempotency-Key", k).Post(u)),
// in the chains assigned to the local variables it starts from, or called on the variable
// at its root (req.SetHeader(...) as a statement of its own).
func (j *Judge) chainHeaderKey(call *ast.CallExpr) (ast.Expr, bool) {
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
		fn, ok := typeutil.Callee(j.info(), c).(*types.Func)
		if !ok || !j.Models.Of(fn).HeaderSetter {
			return false
		}
		k, ok := j.setHeaderValue(c)
		if ok {
			key = k
		}
		return ok
	}
	if j.Defs.Find(sel.X, defuse.Fills, setter) {
		return key, true
	}
	if v := j.Defs.RootVar(sel.X); v != nil {
		for _, c := range j.Defs.CallsOn(v) {
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
func (j *Judge) setHeaderValue(c *ast.CallExpr) (ast.Expr, bool) {
	switch len(c.Args) {
	case 2:
		if isIdempotencyHeader(j.Defs.ConstString(c.Args[0])) {
			return c.Args[1], true
		}
	case 1:
		m := ast.Unparen(c.Args[0])
		v := j.Defs.RootVar(m)
		if v != nil {
			m = ast.Unparen(j.Defs.Def(v))
		}
		if lit, ok := m.(*ast.CompositeLit); ok {
			for _, elt := range lit.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok && isIdempotencyHeader(j.Defs.ConstString(kv.Key)) {
					return kv.Value, true
				}
			}
		}
		if v != nil {
			if val, ok := j.indexSet(v, func(ast.Expr) bool { return true }); ok {
				return val, true
			}
		}
	}
	return nil, false
}

// indexSet finds an assignment v...[k] = x to an idempotency header k, on an indexed
// expression that onIndexed accepts, and returns x.
func (j *Judge) indexSet(v *types.Var, onIndexed func(ast.Expr) bool) (ast.Expr, bool) {
	for _, as := range j.Defs.FieldSets(v) {
		for i, l := range as.Lhs {
			ix, ok := ast.Unparen(l).(*ast.IndexExpr)
			if ok && i < len(as.Rhs) && onIndexed(ix.X) && isIdempotencyHeader(j.Defs.ConstString(ix.Index)) {
				return as.Rhs[i], true
			}
		}
	}
	return nil, false
}

// headerKey finds the value of an idempotency header set on request variable v:
// v.Header.Set(k, x), v.Header.Add(k, x) or v.Header[k] = []string{x}.
func (j *Judge) headerKey(v *types.Var) (ast.Expr, bool) {
	for _, c := range j.Defs.CallsOn(v) {
		sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if (sel.Sel.Name == "Set" || sel.Sel.Name == "Add") && len(c.Args) == 2 && isHeaderField(sel.X) &&
			isIdempotencyHeader(j.Defs.ConstString(c.Args[0])) {
			return c.Args[1], true
		}
	}
	val, ok := j.indexSet(v, isHeaderField)
	if !ok {
		return nil, false
	}
	if lit, ok := ast.Unparen(val).(*ast.CompositeLit); ok && len(lit.Elts) > 0 {
		val = lit.Elts[0]
	}
	return val, true
}

func isHeaderField(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Header"
}

func isIdempotencyHeader(name string) bool {
	for _, h := range model.IdempotencyHeaders {
		if strings.EqualFold(name, h) {
			return true
		}
	}
	return false
}

// tokenRequest reports whether form (url.Values) asks for a token: it has a grant_type
// field (OAuth2, RFC 6749 section 4), in its literal, the literal its variable was built
// from, or set on the variable (form.Set("grant_type", ...)). A token request reads: a
// retry gets another token and changes nothing.
func (j *Judge) tokenRequest(form ast.Expr) bool {
	if form == nil {
		return false
	}
	isGrant := func(k ast.Expr) bool { return j.Defs.ConstString(k) == "grant_type" }
	lit := ast.Unparen(form)
	v := j.Defs.RootVar(form)
	if v != nil {
		lit = ast.Unparen(j.Defs.Def(v))
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
	for _, c := range j.Defs.CallsOn(v) {
		sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if (sel.Sel.Name == "Set" || sel.Sel.Name == "Add") && len(c.Args) == 2 && isGrant(c.Args[0]) {
			return true
		}
	}
	for _, as := range j.Defs.FieldSets(v) {
		for _, l := range as.Lhs {
			if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && isGrant(ix.Index) {
				return true
			}
		}
	}
	return false
}

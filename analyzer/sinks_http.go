// HTTP writes: the method and Idempotency-Key header of a net/http request, and the header
// set in a request builder's chain (resty).

package analyzer

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// httpEffect reads the method of the request a call sends from where it was built, and
// looks for an Idempotency-Key header set on it.
func (a *analysis_) httpEffect(mk mkEffect, reqExpr ast.Expr) *effect.Effect {
	if reqExpr == nil {
		return nil
	}
	info := a.pass.TypesInfo
	v := rootVar(info, reqExpr)
	src := ast.Unparen(reqExpr)
	if v != nil {
		src = ast.Unparen(a.def(v))
	}
	var methodExpr ast.Expr
	switch src := src.(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, src).(*types.Func)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "net/http" {
			switch fn.Name() {
			case "NewRequest":
				methodExpr = argAt(src, 0)
			case "NewRequestWithContext":
				methodExpr = argAt(src, 1)
			}
		}
	case *ast.UnaryExpr: // &http.Request{Method: ...}
		if lit, ok := ast.Unparen(src.X).(*ast.CompositeLit); ok {
			methodExpr, _ = fieldValue(lit, "Method")
		}
	}
	method := strings.ToUpper(a.constString(methodExpr))
	param := 0
	if method == "" {
		// A helper that takes the method (do(ctx, method, path)): the effect is only as
		// real as what its callers pass there (passMethod).
		if param = a.methodParam(methodExpr); param != 0 {
			method = methodUnknown
		}
	}
	if method != "POST" && method != "PATCH" && method != methodUnknown {
		// GET, HEAD, PUT, DELETE, OPTIONS are idempotent (RFC 9110); a method not known
		// at compile time is not reported (docs/caveats.md).
		return nil
	}
	var e *effect.Effect
	var key ast.Expr
	ok := false
	if v != nil {
		key, ok = a.headerKey(v)
	}
	if ok {
		e = a.headerEffect(mk, "HTTP "+method, key)
	} else {
		e = mk(effect.Unprotected, "HTTP "+method+" without an Idempotency-Key header")
	}
	e.MethodParam = uint8(param)
	return e
}

// methodUnknown stands for the method in the detail of an effect whose method is a
// parameter; passMethod puts the method a caller passes in its place.
const methodUnknown = "request"

// methodParam returns 1 + the index of the string parameter of the declared function being
// resolved that e is (directly, or through a local variable assigned once), or 0.
func (a *analysis_) methodParam(e ast.Expr) int {
	if e == nil || a.current == nil || a.current.fn == nil {
		return 0
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return 0
	}
	v, _ := a.pass.TypesInfo.Uses[id].(*types.Var)
	if v == nil {
		return 0
	}
	if d, ok := ast.Unparen(a.def(v)).(*ast.Ident); ok { // m := method
		if w, _ := a.pass.TypesInfo.Uses[d].(*types.Var); w != nil {
			v = w
		}
	}
	params := a.current.fn.Signature().Params()
	for i := 0; i < params.Len() && i < 255; i++ {
		if params.At(i) == v && isString(v.Type()) {
			return i + 1
		}
	}
	return 0
}

// passMethod checks, at a call of a function that sends a request with the method its
// parameter holds (e.MethodParam), what the caller passes there: a constant POST or PATCH
// makes the effect real, another constant makes it none, the caller's own parameter passes
// the question on; anything else is not known, and not reported (as for a method not known
// at compile time). It reports whether the effect is kept.
func (a *analysis_) passMethod(s *site, e effect.Effect) (effect.Effect, bool) {
	i := int(e.MethodParam) - 1
	e.MethodParam = 0
	if s.args == nil || i >= len(s.args) {
		return e, false
	}
	arg := s.args[i]
	switch method := strings.ToUpper(a.constString(arg)); method {
	case "POST", "PATCH":
		e.Detail = strings.Replace(e.Detail, "HTTP "+methodUnknown, "HTTP "+method, 1)
		return e, true
	case "":
		if p := a.methodParam(arg); p != 0 {
			e.MethodParam = uint8(p)
			return e, true
		}
	}
	return e, false
}

// headerEffect judges a request (what: "HTTP POST") by the value of its idempotency header.
func (a *analysis_) headerEffect(mk mkEffect, what string, key ast.Expr) *effect.Effect {
	if src := a.unstableSource(key, 0); src != "" {
		return mk(effect.UnstableKey, "Idempotency-Key header changes on every retry (made from "+src+")")
	}
	if a.constantKey(key) {
		return mk(effect.UnstableKey, "Idempotency-Key header is a constant: every job shares it, so the second job is taken for a duplicate")
	}
	if !a.keyFromInput(key) {
		return mk(effect.UnstableKey, "Idempotency-Key header made from nothing the job carries (no parameter of "+a.current.name+" reaches it)")
	}
	e := mk(effect.Protected, what+" with an Idempotency-Key header")
	e.KeyParams = a.keyParams(key)
	return e
}

// builderEffect judges the end of a builder chain: a query builder guarded by a chain guard
// or guard type, or a request builder (resty) guarded by an idempotency header set by a
// header setter in its chain. With an Arg, the sink takes the HTTP method as that argument
// and only POST and PATCH are effects (an unknown method is not reported, as for http.do).
func (a *analysis_) builderEffect(mk mkEffect, s *model.Sink, call *ast.CallExpr) *effect.Effect {
	if s.Arg >= 0 {
		method := strings.ToUpper(a.constString(argAt(call, s.Arg)))
		if method != "POST" && method != "PATCH" {
			return nil
		}
		named := *s
		named.What = "HTTP " + method
		s = &named
	}
	if a.chainGuarded(call) {
		return mk(effect.Protected, s.What+" with conflict handling")
	}
	if key, ok := a.chainHeaderKey(call); ok {
		return a.headerEffect(mk, s.What, key)
	}
	return mk(effect.Unprotected, s.Problem())
}

// chainHeaderKey finds the value of an idempotency header set by a header setter in the
// receiver chain of a builder call (client.R().SetHeader("Idempotency-Key", k).Post(u)),
// in the chains assigned to the local variables it starts from, or called on the variable
// at its root (req.SetHeader(...) as a statement of its own).
func (a *analysis_) chainHeaderKey(call *ast.CallExpr) (ast.Expr, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	info := a.pass.TypesInfo
	var key ast.Expr
	setter := func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(info, c).(*types.Func)
		if !ok || !a.entry(fn).HeaderSetter {
			return false
		}
		k, ok := a.setHeaderValue(c)
		if ok {
			key = k
		}
		return ok
	}
	if a.findInExpr(sel.X, setter) {
		return key, true
	}
	if v := rootVar(info, sel.X); v != nil {
		for _, c := range a.callsOn[v] {
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
func (a *analysis_) setHeaderValue(c *ast.CallExpr) (ast.Expr, bool) {
	switch len(c.Args) {
	case 2:
		if isIdempotencyHeader(a.constString(c.Args[0])) {
			return c.Args[1], true
		}
	case 1:
		m := ast.Unparen(c.Args[0])
		v := rootVar(a.pass.TypesInfo, m)
		if v != nil {
			m = ast.Unparen(a.def(v))
		}
		if lit, ok := m.(*ast.CompositeLit); ok {
			for _, elt := range lit.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok && isIdempotencyHeader(a.constString(kv.Key)) {
					return kv.Value, true
				}
			}
		}
		if v != nil {
			for _, as := range a.fieldSets[v] {
				for i, l := range as.Lhs {
					if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && i < len(as.Rhs) && isIdempotencyHeader(a.constString(ix.Index)) {
						return as.Rhs[i], true
					}
				}
			}
		}
	}
	return nil, false
}

// headerKey finds the value of an idempotency header set on request variable v:
// v.Header.Set(k, x), v.Header.Add(k, x) or v.Header[k] = []string{x}.
func (a *analysis_) headerKey(v *types.Var) (ast.Expr, bool) {
	for _, c := range a.callsOn[v] {
		sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if (sel.Sel.Name == "Set" || sel.Sel.Name == "Add") && len(c.Args) == 2 && isHeaderField(sel.X) &&
			isIdempotencyHeader(a.constString(c.Args[0])) {
			return c.Args[1], true
		}
	}
	for _, as := range a.fieldSets[v] {
		for i, l := range as.Lhs {
			ix, ok := ast.Unparen(l).(*ast.IndexExpr)
			if !ok || !isHeaderField(ix.X) || !isIdempotencyHeader(a.constString(ix.Index)) || i >= len(as.Rhs) {
				continue
			}
			val := as.Rhs[i]
			if lit, ok := ast.Unparen(val).(*ast.CompositeLit); ok && len(lit.Elts) > 0 {
				val = lit.Elts[0]
			}
			return val, true
		}
	}
	return nil, false
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

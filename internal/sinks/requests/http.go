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
	info := rd.info()
	v := rd.Defs.RootVar(reqExpr)
	src := ast.Unparen(reqExpr)
	if v != nil {
		src = ast.Unparen(rd.Defs.Def(v))
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
	method := strings.ToUpper(rd.Defs.ConstString(methodExpr))
	param := 0
	if method == "" {
		// A helper that takes the method (do(ctx, method, path)): the effect is only as
		// real as what its callers pass there (PassMethod).
		if param = rd.methodParam(methodExpr, sc); param != 0 {
			method = methodUnknown
		}
	}
	if method != "POST" && method != "PATCH" && method != methodUnknown {
		// GET, HEAD, PUT, DELETE, OPTIONS are idempotent (RFC 9110); a method not known
		// at compile time is not reported (docs/caveats.md).
		return nil
	}
	if rd.Reads(urlExpr, bodyExpr) {
		return nil // a login, a token grant, a JSON-RPC read, a GraphQL query
	}
	var e *effect.Effect
	var key ast.Expr
	ok := false
	if v != nil {
		key, ok = rd.headerKey(v)
	}
	if ok {
		e = rd.keys().Header(mk, "HTTP "+method, key, sc)
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
	for _, c := range rd.Defs.CallsOn(v) {
		sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if (sel.Sel.Name == "Set" || sel.Sel.Name == "Add") && len(c.Args) == 2 && isHeaderField(sel.X) &&
			isIdempotencyHeader(rd.Defs.ConstString(c.Args[0])) {
			return c.Args[1], true
		}
	}
	val, ok := rd.indexSet(v, isHeaderField)
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

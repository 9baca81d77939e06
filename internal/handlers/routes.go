// The HTTP routes a package serves, for the program-wide link of requests to them
// (internal/routes): a route registered on a net/http ServeMux with a constant pattern, and
// whether its handler is safe to repeat.

package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/routes"
	"github.com/chokaq/idemlint/internal/topics"
)

// serveMuxRegistrations are the calls that register a handler on a net/http ServeMux: the
// pattern is their first argument, the handler their second.
var serveMuxRegistrations = map[string]bool{
	"(*net/http.ServeMux).HandleFunc": true,
	"(*net/http.ServeMux).Handle":     true,
	"net/http.HandleFunc":             true,
	"net/http.Handle":                 true,
}

// Routes returns the routes the package's files (not its tests) register on a net/http
// ServeMux with a constant pattern, each with whether its handler, a function of the
// package, is safe to repeat: every effect it reaches (after the graph is solved) is
// protected or claimed, and none of its calls is left unresolved. A route whose handler is
// not a function of the package in view (a wrapped handler: mw(h)) is left out, so the
// requests sent to it stay judged as requests to an unknown server.
func Routes(in Input) []routes.Route {
	var out []routes.Route
	for _, file := range in.Files {
		if strings.HasSuffix(in.Fset.File(file.Pos()).Name(), "_test.go") {
			continue
		}
		ast.Inspect(file, func(x ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok || len(call.Args) != 2 {
				return true
			}
			fn, ok := typeutil.Callee(in.Info, call).(*types.Func)
			if !ok || !serveMuxRegistrations[fn.FullName()] {
				return true
			}
			method, path, ok := routes.ParsePattern(in.Defs.ConstString(call.Args[0]))
			if !ok {
				return true
			}
			n := routeHandler(in, call.Args[1])
			if n == nil {
				return true
			}
			why := unsafeBecause(in, n)
			out = append(out, routes.Route{
				Method: method, Path: path, Handler: n.Name,
				At: in.Fset.Position(call.Pos()).String(), Safe: why == "", Why: why,
			})
			return true
		})
	}
	return out
}

// routeHandler returns the node of the handler e registers: a function or method value, a
// literal, either converted to http.HandlerFunc, or a value whose ServeHTTP method is the
// package's; nil for anything else.
func routeHandler(in Input, e ast.Expr) *callgraph.Node {
	e = ast.Unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		// h := http.HandlerFunc(...); mux.Handle(p, h)
		if v, ok := in.Info.Uses[id].(*types.Var); ok {
			if d := in.Defs.Def(v); d != nil {
				e = ast.Unparen(d)
			}
		}
	}
	switch x := e.(type) {
	case *ast.FuncLit:
		return in.Graph.ByLit[x]
	case *ast.CallExpr:
		// http.HandlerFunc(f): a conversion.
		if tv, ok := in.Info.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return routeHandler(in, x.Args[0])
		}
		return nil
	}
	if fn, ok := funcValue(in.Info, e); ok {
		return in.Graph.ByFunc[fn.Origin()]
	}
	if t := in.Info.TypeOf(e); t != nil {
		obj, _, _ := types.LookupFieldOrMethod(t, true, in.Pkg, "ServeHTTP")
		if m, ok := obj.(*types.Func); ok {
			return in.Graph.ByFunc[m.Origin()]
		}
	}
	return nil
}

// funcValue returns the function or method a function value expression names (f, pkg.F,
// h.method).
func funcValue(info *types.Info, e ast.Expr) (*types.Func, bool) {
	id := nameOf(e)
	if id == nil {
		return nil, false
	}
	fn, ok := info.Uses[id].(*types.Func)
	return fn, ok
}

// unsafeBecause says why running n again is not safe, or "" when it is: each effect it
// reaches is protected or claimed, it makes no relative update of its server's state in
// memory (relativeUpdate), and none of its calls of the program's own interfaces is left
// unresolved (what runs there is not known). Calls of the standard library's interfaces
// (the http.ResponseWriter a handler writes its answer to, an io.Writer, an error) are
// neutral, as the standard library is everywhere else.
func unsafeBecause(in Input, n *callgraph.Node) string {
	if why := unsafeEffect(n.Effects); why != "" {
		return why
	}
	if what := relativeUpdate(in, n); what != "" {
		return "it adds to " + what + " in memory"
	}
	if values := in.Graph.Unfollowed(n); len(values) > 0 {
		return "it calls " + values[0] + ", a function value not known"
	}
	return unknownCall(in.Graph.Unresolved(n), in.Pkg.Path())
}

// unsafeEffect returns the detail of the first of effects that is neither protected nor
// claimed, or "": its own words, without what it adds of the route or consumer its request
// or message goes to (that one's own finding says it), so that a chain of them reads as one
// reason, not each reason of the chain nested in the next.
func unsafeEffect(effects effect.Set) string {
	for _, e := range effects {
		if e.State < effect.Claimed {
			d, _, _ := strings.Cut(e.Detail, routes.Unsafe)
			d, _, _ = strings.Cut(d, topics.Unsafe)
			return d
		}
	}
	return ""
}

// unknownCall says which of the unresolved calls of a handler runs code not known, or "":
// a call of the program's own interfaces or of a function value; the standard library's
// interfaces are neutral. own is the path of the handler's package, which tells a module
// named without a dot from the standard library (model.OfProgram).
func unknownCall(unresolved []callgraph.OpenCall, own string) string {
	why, _ := unknownCalls(unresolved, own)
	return why
}

// unknownCalls is unknownCall, with the calls of the program's own interfaces among
// unresolved when they are all there is to say (no function value is among them): what
// the whole program implements may answer those.
func unknownCalls(unresolved []callgraph.OpenCall, own string) (string, []callgraph.OpenCall) {
	var why string
	var open []callgraph.OpenCall
	value := false
	for _, o := range unresolved {
		if o.Method == nil {
			value = true
			if why == "" {
				why = "it calls a function value not known"
			}
			continue
		}
		if pkg := o.Method.Pkg(); pkg != nil && model.OfProgram(pkg.Path(), own) { // nil: error's Error
			if why == "" {
				why = "it calls " + effect.FuncName(o.Method, nil) + ", whose implementation is not known"
			}
			open = append(open, o)
		}
	}
	if value {
		open = nil
	}
	return why, open
}

// relativeUpdate returns the first state outside the call that n's body changes by what it
// held (h.tally[id] += amount, h.count++, h.seen = append(h.seen, id)): a field reached
// from the receiver or a parameter, or a package variable. A server keeps that state from
// one request to the next, so the repeat of a request counts twice. "" when there is none.
func relativeUpdate(in Input, n *callgraph.Node) string {
	if n.Body == nil {
		return ""
	}
	outside := func(e ast.Expr) bool {
		v := in.Defs.RootVar(e)
		switch {
		case v == nil:
			return false
		case v.Parent() == in.Pkg.Scope():
			return true // a package variable
		case isIdent(e):
			return false // a local (or parameter) variable itself, not what it points to
		}
		// A field or element reached from the receiver or a parameter: the state lives in
		// the value the handler was given, which outlives the request.
		return !v.IsField() && n.Body.Pos() > v.Pos()
	}
	var what string
	ast.Inspect(n.Body, func(x ast.Node) bool {
		if what != "" {
			return false
		}
		if _, ok := x.(*ast.FuncLit); ok {
			return false // a literal is a node of its own
		}
		switch s := x.(type) {
		case *ast.IncDecStmt:
			if outside(s.X) {
				what = types.ExprString(s.X)
			}
		case *ast.AssignStmt:
			if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
				return true
			}
			switch s.Tok {
			case token.ADD_ASSIGN, token.SUB_ASSIGN, token.MUL_ASSIGN, token.OR_ASSIGN:
				if outside(s.Lhs[0]) {
					what = types.ExprString(s.Lhs[0])
				}
			case token.ASSIGN:
				if c, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr); ok && len(c.Args) > 0 && outside(s.Lhs[0]) {
					if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "append" &&
						types.ExprString(c.Args[0]) == types.ExprString(s.Lhs[0]) {
						what = types.ExprString(s.Lhs[0])
					}
				}
			}
		}
		return true
	})
	return what
}

// isIdent reports whether e is a bare name.
func isIdent(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.Ident)
	return ok
}

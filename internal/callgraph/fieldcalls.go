package callgraph

import (
	"go/ast"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
)

// Field calls. A shared runner often takes its work in a struct field of a parameter
// (runWork(ctx, cfg{work: func(ctx) error {...}})) and calls it (c.work(ctx)). What the
// field holds is what each caller put there: followed as "every function value the package
// stores in the field", one worker's closure would run in every other worker that uses the
// runner (each reported with the other's effects). So for an unexported function that only
// selects from such a parameter, the call of the field is not the function's own effect:
// at each of its calls, the value the caller's argument holds in that field enters the
// caller through the function, as a callback parameter's does (routeArgs). An argument whose
// field is not in view (built elsewhere) is given what the package stores in the field.

// fieldCall is a call, in a function, of a func-typed field of one of its parameters.
type fieldCall struct {
	param int
	field *types.Var
}

// solveFieldCalls finds the field calls of every unexported declared function whose
// parameter is used only to select its fields (not passed on, stored or returned whole, so
// that no other function calls the field on its behalf). An exported function keeps the
// field's stored values: its callers in other packages are out of view.
func (fv *valueResolver) solveFieldCalls() {
	for _, n := range fv.Nodes {
		if n.Fn == nil || n.Fn.Exported() || n.Sig == nil || n.Sig.Params().Len() == 0 {
			continue
		}
		if calls := fv.fieldCallsOf(n); len(calls) > 0 {
			if fv.fieldCalls == nil {
				fv.fieldCalls = map[*Node][]fieldCall{}
				fv.fieldCallExprs = map[*ast.CallExpr]bool{}
			}
			for _, c := range calls {
				fv.fieldCalls[n] = append(fv.fieldCalls[n], c.fieldCall)
				fv.fieldCallExprs[c.call] = true
			}
		}
	}
}

type fieldCallAt struct {
	fieldCall
	call *ast.CallExpr
}

// fieldCallsOf returns the field calls of n (in its body and its literals) on parameters
// used in no other way than selecting fields.
func (fv *valueResolver) fieldCallsOf(n *Node) []fieldCallAt {
	info := fv.in.Info
	params := map[*types.Var]int{}
	for i := 0; i < n.Sig.Params().Len(); i++ {
		params[n.Sig.Params().At(i)] = i
	}
	selected := map[*ast.Ident]bool{}
	var calls []fieldCallAt
	escaped := map[int]bool{}
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.SelectorExpr:
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok {
				if v, ok := info.Uses[id].(*types.Var); ok {
					if _, ok := params[v]; ok {
						selected[id] = true
					}
				}
			}
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := ast.Unparen(sel.X).(*ast.Ident)
			if !ok {
				return true
			}
			v, _ := info.Uses[id].(*types.Var)
			i, isParam := params[v]
			field, _ := info.Uses[sel.Sel].(*types.Var)
			if !isParam || v == nil || field == nil || !field.IsField() {
				return true
			}
			if _, ok := field.Type().Underlying().(*types.Signature); ok {
				calls = append(calls, fieldCallAt{fieldCall{i, field.Origin()}, x})
			}
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok {
				if i, ok := params[v]; ok && !selected[x] {
					escaped[i] = true
				}
			}
		}
		return true
	})
	var out []fieldCallAt
	for _, c := range calls {
		if !escaped[c.param] {
			out = append(out, c)
		}
	}
	return out
}

// routeFields adds, for a call of fn (a node with field calls), a site for each function
// value the call's arguments hold in those fields, through fn; it returns the expressions
// routed, which must not also enter n directly.
func (fv *valueResolver) routeFields(n *Node, fn *types.Func, call *ast.CallExpr, args []ast.Expr, routed map[ast.Expr]bool) map[ast.Expr]bool {
	local := fv.ByFunc[fn]
	if local == nil {
		return routed
	}
	for _, fc := range fv.fieldCalls[local] {
		if fc.param >= len(args) {
			continue
		}
		exprs, known := fv.fieldExprs(args[fc.param], fc.field, 0)
		var values []funcValue
		if known {
			for _, e := range exprs {
				values = append(values, fv.funcValues(e, 0, true)...)
				if routed == nil {
					routed = map[ast.Expr]bool{}
				}
				routed[e] = true
			}
		} else {
			values = fv.slotValues(slotKey{fc.field, false})
		}
		for _, v := range values {
			n.Sites = append(n.Sites, Site{Pos: call.Pos(), line: fv.line(call.Pos()), callee: local.HopName(), local: v.local, fact: v.fact, value: v.name})
		}
	}
	return routed
}

// fieldExprs returns what the value of e holds in field: the element of a composite literal
// (or of the one a local variable was defined as once) that sets it, none when the literal
// leaves it unset; known is false when e's value is not in view.
func (fv *valueResolver) fieldExprs(e ast.Expr, field *types.Var, depth int) (exprs []ast.Expr, known bool) {
	if depth > defuse.MaxDepth {
		return nil, false
	}
	e = unconvert(fv.in.Info, e)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	switch x := e.(type) {
	case *ast.CompositeLit:
		st, ok := fv.in.Info.TypeOf(x).Underlying().(*types.Struct)
		if !ok {
			return nil, false
		}
		for i, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					if f, _ := fv.in.Info.Uses[id].(*types.Var); f != nil && f.Origin() == field {
						return []ast.Expr{kv.Value}, true
					}
				}
			} else if i < st.NumFields() && st.Field(i).Origin() == field {
				return []ast.Expr{el}, true
			}
		}
		return nil, true
	case *ast.Ident:
		if v, _ := fv.in.Info.Uses[x].(*types.Var); v != nil && v.Parent() != fv.in.Pkg.Scope() {
			if d := fv.in.Judge.Defs.Def(v); d != nil {
				return fv.fieldExprs(d, field, depth+1)
			}
		}
	}
	return nil, false
}

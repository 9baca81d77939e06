package callgraph

import (
	"go/ast"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
)

// Conversions returns the named types whose values (or pointers to them) the files convert
// to an interface: assigned, passed, returned, stored in a field or element, sent, or
// converted explicitly. Rapid type analysis's rule for a program-wide link: only such a
// type can be behind an interface value, so only its methods can be reached by an
// interface call.
func Conversions(info *types.Info, files []*ast.File) []*types.Named {
	set := map[*types.Named]bool{}
	var out []*types.Named
	noteType := func(dst, t types.Type) {
		if dst == nil || t == nil || !types.IsInterface(dst) || types.IsInterface(t) {
			return
		}
		if n, ok := types.Unalias(defuse.Deref(t)).(*types.Named); ok && !set[n.Origin()] {
			set[n.Origin()] = true
			out = append(out, n.Origin())
		}
	}
	note := func(dst types.Type, e ast.Expr) {
		if e != nil {
			noteType(dst, info.TypeOf(e))
		}
	}
	// noteTuple notes the values of a call that returns several (return newStore(), or
	// s, err := newStore() into interface-typed variables) against their destinations.
	noteTuple := func(dst func(i int) types.Type, n int, call ast.Expr) {
		tuple, ok := info.TypeOf(call).(*types.Tuple)
		if !ok || tuple.Len() != n {
			return
		}
		for i := 0; i < n; i++ {
			noteType(dst(i), tuple.At(i).Type())
		}
	}
	var sigs []*types.Signature // of the enclosing functions, for returns
	var visit func(x ast.Node) bool
	visit = func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncDecl:
			if fn, ok := info.Defs[x.Name].(*types.Func); ok && x.Body != nil {
				sigs = append(sigs, fn.Signature())
				ast.Inspect(x.Body, visit)
				sigs = sigs[:len(sigs)-1]
			}
			return false
		case *ast.FuncLit:
			if sig, ok := info.TypeOf(x).(*types.Signature); ok {
				sigs = append(sigs, sig)
				ast.Inspect(x.Body, visit)
				sigs = sigs[:len(sigs)-1]
			}
			return false
		case *ast.AssignStmt:
			if len(x.Lhs) == len(x.Rhs) {
				for i := range x.Lhs {
					note(info.TypeOf(x.Lhs[i]), x.Rhs[i])
				}
			} else if len(x.Rhs) == 1 {
				noteTuple(func(i int) types.Type { return info.TypeOf(x.Lhs[i]) }, len(x.Lhs), x.Rhs[0])
			}
		case *ast.ValueSpec:
			if x.Type != nil && len(x.Values) == len(x.Names) {
				for _, v := range x.Values {
					note(info.TypeOf(x.Type), v)
				}
			} else if x.Type != nil && len(x.Values) == 1 {
				noteTuple(func(int) types.Type { return info.TypeOf(x.Type) }, len(x.Names), x.Values[0])
			}
		case *ast.ReturnStmt:
			if len(sigs) > 0 {
				res := sigs[len(sigs)-1].Results()
				if len(x.Results) == res.Len() {
					for i, r := range x.Results {
						note(res.At(i).Type(), r)
					}
				} else if len(x.Results) == 1 {
					noteTuple(func(i int) types.Type { return res.At(i).Type() }, res.Len(), x.Results[0])
				}
			}
		case *ast.SendStmt:
			if ch, ok := types.Unalias(info.TypeOf(x.Chan)).Underlying().(*types.Chan); ok {
				note(ch.Elem(), x.Value)
			}
		case *ast.CallExpr:
			callConversions(info, x, note)
		case *ast.CompositeLit:
			literalConversions(info, x, note)
		}
		return true
	}
	for _, f := range files {
		ast.Inspect(f, visit)
	}
	return out
}

// callConversions notes an explicit conversion I(x) and the arguments passed to interface
// parameters.
func callConversions(info *types.Info, call *ast.CallExpr, note func(types.Type, ast.Expr)) {
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		if len(call.Args) == 1 {
			note(tv.Type, call.Args[0])
		}
		return
	}
	sig, ok := types.Unalias(info.TypeOf(call.Fun)).(*types.Signature)
	if !ok {
		return
	}
	params := sig.Params()
	for i, arg := range call.Args {
		switch {
		case sig.Variadic() && i >= params.Len()-1 && !call.Ellipsis.IsValid():
			if s, ok := params.At(params.Len() - 1).Type().(*types.Slice); ok {
				note(s.Elem(), arg)
			}
		case i < params.Len():
			note(params.At(i).Type(), arg)
		}
	}
}

// literalConversions notes the values of a composite literal stored in interface-typed
// fields, elements or map values.
func literalConversions(info *types.Info, lit *ast.CompositeLit, note func(types.Type, ast.Expr)) {
	t := info.TypeOf(lit)
	if t == nil {
		return
	}
	switch u := defuse.Deref(t).Underlying().(type) {
	case *types.Struct:
		for i, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					if f, ok := info.Uses[id].(*types.Var); ok {
						note(f.Type(), kv.Value)
					}
				}
			} else if i < u.NumFields() {
				note(u.Field(i).Type(), elt)
			}
		}
	case *types.Slice, *types.Array, *types.Map:
		var elem types.Type
		switch u := u.(type) {
		case *types.Slice:
			elem = u.Elem()
		case *types.Array:
			elem = u.Elem()
		case *types.Map:
			elem = u.Elem()
		}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			note(elem, elt)
		}
	}
}

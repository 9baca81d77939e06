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
	c := &converted{info: info, set: map[*types.Named]bool{}}
	for _, f := range files {
		ast.Inspect(f, c.visit)
	}
	return c.out
}

// converted collects the types of one Conversions call; sigs are the signatures of the
// functions enclosing the node visited, for its returns.
type converted struct {
	info *types.Info
	set  map[*types.Named]bool
	out  []*types.Named
	sigs []*types.Signature
}

// noteType records t when a value of it goes to dst, an interface.
func (c *converted) noteType(dst, t types.Type) {
	if dst == nil || t == nil || !types.IsInterface(dst) || types.IsInterface(t) {
		return
	}
	if n, ok := types.Unalias(defuse.Deref(t)).(*types.Named); ok && !c.set[n.Origin()] {
		c.set[n.Origin()] = true
		c.out = append(c.out, n.Origin())
	}
}

// note records the type of e when e goes to dst.
func (c *converted) note(dst types.Type, e ast.Expr) {
	if e != nil {
		c.noteType(dst, c.info.TypeOf(e))
	}
}

// noteTuple notes the n values of a call that returns several (return newStore(), or
// s, err := newStore() into interface-typed variables) against their destinations.
func (c *converted) noteTuple(dst func(i int) types.Type, n int, call ast.Expr) {
	tuple, ok := c.info.TypeOf(call).(*types.Tuple)
	if !ok || tuple.Len() != n {
		return
	}
	for i := 0; i < n; i++ {
		c.noteType(dst(i), tuple.At(i).Type())
	}
}

func (c *converted) visit(x ast.Node) bool {
	info := c.info
	switch x := x.(type) {
	case *ast.FuncDecl:
		if fn, ok := info.Defs[x.Name].(*types.Func); ok && x.Body != nil {
			c.within(fn.Signature(), x.Body)
		}
		return false
	case *ast.FuncLit:
		if sig, ok := info.TypeOf(x).(*types.Signature); ok {
			c.within(sig, x.Body)
		}
		return false
	case *ast.AssignStmt:
		if len(x.Lhs) == len(x.Rhs) {
			for i := range x.Lhs {
				c.note(info.TypeOf(x.Lhs[i]), x.Rhs[i])
			}
		} else if len(x.Rhs) == 1 {
			c.noteTuple(func(i int) types.Type { return info.TypeOf(x.Lhs[i]) }, len(x.Lhs), x.Rhs[0])
		}
	case *ast.ValueSpec:
		c.valueSpec(x)
	case *ast.ReturnStmt:
		c.returned(x)
	case *ast.SendStmt:
		if ch, ok := types.Unalias(info.TypeOf(x.Chan)).Underlying().(*types.Chan); ok {
			c.note(ch.Elem(), x.Value)
		}
	case *ast.CallExpr:
		callConversions(info, x, c.note)
	case *ast.CompositeLit:
		literalConversions(info, x, c.note)
	}
	return true
}

// within visits a function body with its signature in scope for its returns.
func (c *converted) within(sig *types.Signature, body *ast.BlockStmt) {
	c.sigs = append(c.sigs, sig)
	ast.Inspect(body, c.visit)
	c.sigs = c.sigs[:len(c.sigs)-1]
}

// valueSpec notes the values a declaration gives interface-typed variables. A blank name
// keeps nothing: var _ Store = (*pg)(nil) is the compile-time check that *pg implements
// Store, not a *pg behind a Store (an implementation only asserted, never built, would
// otherwise be linked to every call through the interface).
func (c *converted) valueSpec(x *ast.ValueSpec) {
	if x.Type == nil {
		return
	}
	dst := func(i int) types.Type {
		if x.Names[i].Name == "_" {
			return nil
		}
		return c.info.TypeOf(x.Type)
	}
	if len(x.Values) == len(x.Names) {
		for i, v := range x.Values {
			c.note(dst(i), v)
		}
	} else if len(x.Values) == 1 {
		c.noteTuple(dst, len(x.Names), x.Values[0])
	}
}

func (c *converted) returned(x *ast.ReturnStmt) {
	if len(c.sigs) == 0 {
		return
	}
	res := c.sigs[len(c.sigs)-1].Results()
	if len(x.Results) == res.Len() {
		for i, r := range x.Results {
			c.note(res.At(i).Type(), r)
		}
	} else if len(x.Results) == 1 {
		c.noteTuple(func(i int) types.Type { return res.At(i).Type() }, res.Len(), x.Results[0])
	}
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

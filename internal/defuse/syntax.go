package defuse

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Helpers on syntax and types that every stage reading calls needs.

// ArgAt returns the call's i-th argument, or nil.
func ArgAt(call *ast.CallExpr, i int) ast.Expr {
	if i < 0 || i >= len(call.Args) {
		return nil
	}
	return call.Args[i]
}

// Unwrap returns the argument of a one-argument call (aws.String("..."), stripe.String(k)),
// else e.
func Unwrap(e ast.Expr) ast.Expr {
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(c.Args) == 1 {
		return c.Args[0]
	}
	return e
}

// FieldValue returns the value given to the field named name in a keyed composite literal.
func FieldValue(lit *ast.CompositeLit, name string) (ast.Expr, bool) {
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value, true
			}
		}
	}
	return nil, false
}

// Deref returns the element type of a pointer type, else t.
func Deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// IsContext reports whether t is context.Context.
func IsContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context" && n.Obj().Name() == "Context"
}

// IsString reports whether t's underlying type is a string type.
func IsString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// EndsBlock reports whether st leaves the rest of the block it ends (and of every block
// around it up to the function or loop body): a return, or a continue or break, which in a
// receive loop skips the rest of the message's handling as a return skips the rest of a
// handler.
func EndsBlock(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok == token.CONTINUE || st.Tok == token.BREAK
	}
	return false
}

// IsBytes reports whether t is []byte (or a named type of it).
func IsBytes(t types.Type) bool {
	if t == nil {
		return false
	}
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}

// ReturnsError reports whether a return statement in body (not in nested literals)
// returns an error that may not be nil (return err, return ErrDuplicate, return
// fmt.Errorf(...)). An error made only of error variables body declares itself is another
// call's: a lookup made inside the branch (existing, lookupErr := q.GetByKey(...); return
// fmt.Errorf("...: %w", lookupErr)) fails on its own, not because of what the branch tests.
func ReturnsError(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range x.Results {
				if tv, ok := info.Types[r]; ok && !tv.IsNil() && types.Implements(tv.Type, errorIface) && !errorOfBody(info, r, body) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// errorOfBody reports whether the error expression r is made of error variables, all of
// them declared inside body.
func errorOfBody(info *types.Info, r ast.Expr, body *ast.BlockStmt) bool {
	vars, inside := 0, true
	ast.Inspect(r, func(x ast.Node) bool {
		id, ok := x.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok || v.IsField() || !types.Identical(v.Type(), errorType) {
			return true
		}
		vars++
		inside = inside && body.Pos() <= v.Pos() && v.Pos() < body.End()
		return true
	})
	return vars > 0 && inside
}

var (
	errorType  = types.Universe.Lookup("error").Type()
	errorIface = errorType.Underlying().(*types.Interface)
)

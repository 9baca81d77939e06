package params

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
)

// DeclaredField names the field sel selects (v.IdempotencyKey, v.Params.IdempotencyKey) as
// "pkg.Type.Field" of the struct that declares it, through embedding; "" if no field.
func DeclaredField(info *types.Info, sel *ast.SelectorExpr) string {
	s, ok := info.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return ""
	}
	t := s.Recv()
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		st, ok := defuse.Deref(t).Underlying().(*types.Struct)
		if !ok {
			return ""
		}
		t = st.Field(i).Type()
	}
	return fieldName(t, sel.Sel.Name)
}

// conditionHolds reports whether value, given to the field named field, is a condition
// that guards the write: the field is a modelled condition field and its text (through a
// one-argument wrapper, aws.String) contains one of the model's strings, in any case.
func (rd Reader) conditionHolds(field string, value ast.Expr) bool {
	want := rd.Models.Index.ConditionField(field)
	if len(want) == 0 {
		return false
	}
	text := strings.ToLower(rd.Defs.Text(defuse.Unwrap(value)))
	for _, w := range want {
		if strings.Contains(text, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// fieldName renders "pkg/path.Type.Field" for a field of the named type t.
func fieldName(t types.Type, field string) string {
	named, ok := defuse.Deref(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return ""
	}
	return named.Obj().Pkg().Path() + "." + named.Obj().Name() + "." + field
}

// Conditioned reports whether params set a condition field whose text fails on a repeat
// (attribute_not_exists), in the literal or on the params variable: the call then changes
// nothing the second time, and its error says so (a conditional put is a claim).
func (rd Reader) Conditioned(params ast.Expr) bool {
	k := rd.providerKey(params)
	return k.state == litKeyed && len(k.keys) == 0
}

// Elems returns the elements of the slice e: those of a literal, or those put into a local
// slice variable where it is built (literal, append); a nil element is one not known.
func (rd Reader) Elems(e ast.Expr) []ast.Expr {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		out := make([]ast.Expr, len(x.Elts))
		for i, elt := range x.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			out[i] = elt
		}
		return out
	case *ast.Ident:
		if v, ok := rd.info().Uses[x].(*types.Var); ok && !v.IsField() {
			return rd.sliceElems(v)
		}
	}
	return []ast.Expr{nil}
}

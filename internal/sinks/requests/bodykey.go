package requests

import (
	"go/ast"
	"go/types"
	"reflect"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
)

// bodyKey is an idempotency key a request carries in its JSON body: json.Marshal of a value
// whose struct type has an IdempotencyKey field (Go name or JSON name idempotency_key,
// idempotencyKey, idempotency-key), as internal APIs and some providers take it. Key is
// what judges it: the field's value in a literal, else the value marshalled (a job's input
// handed on whole carries the key its producer set).
type bodyKey struct {
	key   ast.Expr
	field string // "ChargeInput.IdempotencyKey", for messages
}

// bodyKeyOf finds the idempotency key field of the value a request body marshals, following
// the body's readers and conversions as bodyReads does.
func (rd Reader) bodyKeyOf(body ast.Expr) (bodyKey, bool) {
	info := rd.info()
	var out bodyKey
	found := false
	rd.Defs.Find(body, defuse.Value, func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			_, isIdent := x.(*ast.Ident)
			return !isIdent
		}
		if tv, ok := info.Types[c.Fun]; ok && tv.IsType() && len(c.Args) == 1 {
			return false
		}
		if reader(bodyFunc(info, c)) {
			return false
		}
		if bodyFunc(info, c) == "encoding/json.Marshal" {
			out, found = rd.keyField(defuse.ArgAt(c, 0))
		}
		return true
	}, throughOperand)
	return out, found
}

// keyField returns the idempotency key field of v's struct type, with the expression that
// judges it.
func (rd Reader) keyField(v ast.Expr) (bodyKey, bool) {
	if v == nil {
		return bodyKey{}, false
	}
	t := rd.info().TypeOf(v)
	if t == nil {
		return bodyKey{}, false
	}
	named, _ := types.Unalias(defuse.Deref(t)).(*types.Named)
	st, ok := defuse.Deref(t).Underlying().(*types.Struct)
	if !ok {
		return bodyKey{}, false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !idempotencyField(f.Name(), st.Tag(i)) {
			continue
		}
		name := f.Name()
		if named != nil {
			name = named.Obj().Name() + "." + name
		}
		key := v
		lit := ast.Unparen(v)
		if u, ok := lit.(*ast.UnaryExpr); ok {
			lit = ast.Unparen(u.X)
		}
		if id, ok := lit.(*ast.Ident); ok {
			if w, _ := rd.info().Uses[id].(*types.Var); w != nil {
				if d := rd.Defs.Def(w); d != nil {
					lit = ast.Unparen(d)
					if u, ok := lit.(*ast.UnaryExpr); ok {
						lit = ast.Unparen(u.X)
					}
				}
			}
		}
		if cl, ok := lit.(*ast.CompositeLit); ok {
			fv, set := defuse.FieldValue(cl, f.Name())
			if !set {
				return bodyKey{}, false // the literal leaves the key empty
			}
			key = fv
		}
		return bodyKey{key: key, field: name}, true
	}
	return bodyKey{}, false
}

// idempotencyField reports whether a struct field is an idempotency key by its Go name or
// its JSON name.
func idempotencyField(name string, tag string) bool {
	norm := func(s string) string { return strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(s)) }
	if norm(name) == "idempotencykey" {
		return true
	}
	j, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
	return j != "" && norm(j) == "idempotencykey"
}

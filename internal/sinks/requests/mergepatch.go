// PATCHes that converge. A PATCH whose body is a JSON object is a merge patch (RFC 7396,
// application/merge-patch+json): each member replaces the target's member of that name, or
// removes it when null, so applying the same patch twice leaves what applying it once did.
// Services send their PATCHes this way (a user's limits, a bank's configuration, a
// resource's labels), and a repeat sets the same values again. A JSON Patch (RFC 6902) is
// an array of operations, some of which ("add" to the end of a list, "copy", "move") do
// not converge; a body whose shape is not seen says nothing. Both stay reported, as RFC 9110
// has every PATCH.

package requests

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
)

// mergePatch reports whether a PATCH's body (the expression given to the request) is
// json.Marshal of a value that encodes to a JSON object (objectType).
func (rd Reader) mergePatch(body ast.Expr) bool {
	arg := rd.marshalledArg(body)
	return arg != nil && objectType(rd.info().TypeOf(arg))
}

// objectType reports whether values of t encode to a JSON object by encoding/json's own
// rules: a struct or a pointer to one, or a map with string keys, neither with a
// MarshalJSON or MarshalText method of its own (which may encode anything).
func objectType(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	for _, m := range []string{"MarshalJSON", "MarshalText"} {
		if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, nil, m); obj != nil {
			if _, ok := obj.(*types.Func); ok {
				return false
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		return true
	case *types.Map:
		b, ok := u.Key().Underlying().(*types.Basic)
		return ok && b.Info()&types.IsString != 0
	}
	return false
}

// passMergePatch reports whether, at a call of a function whose PATCH marshals its
// parameter (a client's do(ctx, method, path, body any), the method decided here or in the
// callee: a method still a parameter leaves the detail saying "HTTP request"), the caller's
// argument there (arg) encodes to a JSON object: the PATCH then converges, and is no effect.
func (rd Reader) passMergePatch(arg ast.Expr, e effect.Effect) bool {
	return strings.HasPrefix(e.Detail, "HTTP PATCH") && objectType(rd.info().TypeOf(arg))
}

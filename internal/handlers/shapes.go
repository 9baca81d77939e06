// Shapes: the signatures a framework calls as handlers.

package handlers

import (
	"go/types"

	"github.com/chokaq/idemlint/internal/model"
)

// shapeOf returns the handler shape sig has as a method named method ("" for functions).
func (f *finder) shapeOf(sig *types.Signature, method string) *model.HandlerShape {
	for i, shape := range f.models.Index.Handlers() {
		if shape.Method == method && matchSignature(sig, shape) {
			return &f.models.Index.Handlers()[i]
		}
	}
	return nil
}

// middlewareShape reports whether sig can be a handler handed to the runtime middleware:
// func(context.Context, J) error, or a framework's shape.
func (f *finder) middlewareShape(sig *types.Signature) bool {
	if sig == nil {
		return false
	}
	if f.shapeOf(sig, "") != nil {
		return true
	}
	p, r := sig.Params(), sig.Results()
	return p.Len() == 2 && matchType(p.At(0).Type(), model.TypeRef{Path: "context", Name: "Context"}) &&
		r.Len() == 1 && matchType(r.At(0).Type(), model.TypeRef{Name: "error"})
}

func methodName(fn *types.Func) string {
	if fn.Signature().Recv() != nil {
		return fn.Name()
	}
	return ""
}
func matchSignature(sig *types.Signature, shape model.HandlerShape) bool {
	if sig.Params().Len() != len(shape.Params) || sig.Results().Len() != len(shape.Results) {
		return false
	}
	for i, ref := range shape.Params {
		if !matchType(sig.Params().At(i).Type(), ref) {
			return false
		}
	}
	for i, ref := range shape.Results {
		if !matchType(sig.Results().At(i).Type(), ref) {
			return false
		}
	}
	return true
}

func matchType(t types.Type, ref model.TypeRef) bool {
	if ref.Slice {
		s, ok := t.(*types.Slice)
		if !ok {
			return false
		}
		t = s.Elem()
	}
	if ref.Ptr {
		p, ok := t.(*types.Pointer)
		if !ok {
			return false
		}
		t = p.Elem()
	}
	if ref.Path == "" {
		b := types.Universe.Lookup(ref.Name)
		return b != nil && types.Identical(t, b.Type())
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	obj := named.Origin().Obj()
	return obj.Pkg() != nil && obj.Name() == ref.Name && model.Normalize(obj.Pkg().Path()) == model.Normalize(ref.Path)
}

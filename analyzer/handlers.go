package analyzer

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/model"
)

// handlerNode is a node the package's frameworks (or a directive) will run as a handler.
type handlerNode struct {
	*node
	framework string
	wrapped   bool // handed to idemlint's runtime middleware in this package
}

// findHandlers lists the handlers declared in the package:
//   - methods with a framework's handler method shape (asynq ProcessTask, River Work);
//   - functions with a framework's handler function shape, when exported (another package
//     may register them) or used as a value here (registered, converted, stored);
//   - function literals with such a shape that are not called on the spot;
//   - functions marked //idemlint:handler.
//
// Handlers are reported where they are declared: the diagnostic then sits in the handler's
// body, in the package that owns it, whichever package registers it.
func (a *analysis_) findHandlers() []handlerNode {
	called := map[*ast.FuncLit]bool{}
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(x ast.Node) bool {
			if c, ok := x.(*ast.CallExpr); ok {
				if lit, ok := ast.Unparen(c.Fun).(*ast.FuncLit); ok {
					called[lit] = true
				}
			}
			return true
		})
	}
	wrapped := a.wrappedByMiddleware()
	var out []handlerNode
	for _, n := range a.nodes {
		if n.marked != nil {
			n.marked.Used = true
			out = append(out, handlerNode{n, "directive", wrapped[n]})
			continue
		}
		var sig *types.Signature
		method := ""
		switch {
		case n.fn != nil:
			sig = n.fn.Signature()
			if sig.Recv() != nil {
				method = n.fn.Name()
			}
		case n.lit != nil && !called[n.lit]:
			sig, _ = a.pass.TypesInfo.TypeOf(n.lit).(*types.Signature)
		}
		if sig == nil {
			continue
		}
		if wrapped[n] {
			out = append(out, handlerNode{n, "idempotency", true})
			continue
		}
		for _, shape := range a.index.Handlers() {
			if shape.Method != method || !matchSignature(sig, shape) {
				continue
			}
			if method == "" && n.fn != nil && !n.fn.Exported() && !a.referenced[n.fn] {
				continue // an unexported helper with a handler's signature, called directly
			}
			out = append(out, handlerNode{n, shape.Framework, false})
			break
		}
	}
	return out
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

// wrappedByMiddleware finds the handlers handed to idemlint's runtime middleware in this
// package: functions, method values and literals passed to a call into the middleware module
// (m.Wrap(h), an adapter's wrapper), and the handler methods of a type whose value is passed
// (a River worker wrapped by the River adapter). Such a function is a handler even without a
// framework's shape: the middleware's own shape is func(ctx, job J) error.
func (a *analysis_) wrappedByMiddleware() map[*node]bool {
	out := map[*node]bool{}
	info := a.pass.TypesInfo
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(x ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, ok := typeutil.Callee(info, call).(*types.Func)
			if !ok || fn.Pkg() == nil || !inMiddleware(fn.Pkg().Path()) {
				return true
			}
			for _, arg := range call.Args {
				ast.Inspect(arg, func(y ast.Node) bool {
					switch y := y.(type) {
					case *ast.FuncLit:
						if n := a.byLit[y]; n != nil {
							out[n] = true
						}
						return false
					case *ast.Ident:
						if fn, ok := info.Uses[y].(*types.Func); ok {
							if n := a.byFunc[fn.Origin()]; n != nil {
								out[n] = true
							}
						}
					case *ast.CompositeLit:
						a.markHandlerMethods(info.TypeOf(y), out)
					}
					return true
				})
			}
			return true
		})
	}
	return out
}

// markHandlerMethods marks the framework handler methods (ProcessTask, Work) declared on t.
func (a *analysis_) markHandlerMethods(t types.Type, out map[*node]bool) {
	named, ok := deref(t).(*types.Named)
	if !ok {
		return
	}
	for i := 0; i < named.NumMethods(); i++ {
		m := named.Method(i)
		n := a.byFunc[m]
		if n == nil {
			continue
		}
		for _, shape := range a.index.Handlers() {
			if shape.Method == m.Name() && matchSignature(m.Signature(), shape) {
				out[n] = true
			}
		}
	}
}

func inMiddleware(path string) bool {
	return path == model.MiddlewarePath || strings.HasPrefix(path, model.MiddlewarePath+"/")
}

package frameworks

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/model"
)

// The wrap fix hands an asynq handler's registration to the runtime middleware:
//
//	mux.Handle("t", h)      -> mux.Handle("t", idemasynq.Handler(mw, h))
//	mux.HandleFunc("t", f)  -> mux.Handle("t", idemasynq.Handler(mw, asynq.HandlerFunc(f)))
//
// It is offered only where nothing has to be decided: the file already imports the asynq
// adapter, and exactly one middleware for asynq tasks is in scope at the registration, so its
// key function and retention are the ones the team chose. River installs the middleware for
// all workers in its Config and Watermill on the router: there is no registration to wrap.

const idemasynqPath = model.MiddlewarePath + "/idemasynq"

// WrapFix proposes wrapping the registration call (of the handler named name, in file) with
// the middleware, or nil.
func WrapFix(info *types.Info, pkg *types.Package, fset *token.FileSet, file *ast.File, call *ast.CallExpr, name string) *analysis.SuggestedFix {
	if call == nil || file == nil || len(call.Args) != 2 {
		return nil
	}
	ok, handleFunc := MuxRegistration(info, call)
	if !ok {
		return nil
	}
	adapter := importName(file, idemasynqPath)
	asynqName := importName(file, AsynqPath)
	if adapter == "" || (handleFunc && asynqName == "") {
		return nil
	}
	mw := middlewareInScope(pkg, call.Pos())
	if mw == nil {
		return nil
	}
	arg := call.Args[1]
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, arg); err != nil {
		return nil
	}
	inner := buf.String()
	if handleFunc {
		inner = asynqName + ".HandlerFunc(" + inner + ")"
	}
	edits := []analysis.TextEdit{{Pos: arg.Pos(), End: arg.End(),
		NewText: []byte(adapter + ".Handler(" + mw.Name() + ", " + inner + ")")}}
	if handleFunc {
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		edits = append(edits, analysis.TextEdit{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("Handle")})
	}
	return &analysis.SuggestedFix{
		Message:   "Wrap the registration of " + name + " with the idempotency middleware " + mw.Name(),
		TextEdits: edits,
	}
}

// middlewareInScope returns the one variable in scope at pos whose type is the runtime
// middleware for asynq tasks (*idempotency.Middleware[*asynq.Task]); nil when there is none
// or more than one (which one is a decision).
func middlewareInScope(pkg *types.Package, pos token.Pos) *types.Var {
	inner := pkg.Scope().Innermost(pos)
	var found *types.Var
	seen := map[string]bool{}
	for sc := inner; sc != nil && sc != types.Universe; sc = sc.Parent() {
		local := sc != pkg.Scope()
		for _, name := range sc.Names() {
			if seen[name] {
				continue // shadowed by an inner declaration
			}
			v, ok := sc.Lookup(name).(*types.Var)
			if !ok || (local && v.Pos() > pos) {
				continue
			}
			seen[name] = true
			if !asynqMiddleware(v.Type()) {
				continue
			}
			if found != nil {
				return nil
			}
			found = v
		}
	}
	return found
}

// asynqMiddleware reports whether t is *idempotency.Middleware[*asynq.Task].
func asynqMiddleware(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != model.MiddlewarePath ||
		named.Obj().Name() != "Middleware" || named.TypeArgs().Len() != 1 {
		return false
	}
	return TypeName(named.TypeArgs().At(0)) == AsynqPath+".Task"
}

// importName returns the name by which file refers to the package at path, or "" when it
// does not import it by a usable name.
func importName(file *ast.File, path string) string {
	for _, imp := range file.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || p != path {
			continue
		}
		if imp.Name != nil {
			if imp.Name.Name == "_" || imp.Name.Name == "." {
				return ""
			}
			return imp.Name.Name
		}
		return p[strings.LastIndexByte(p, '/')+1:]
	}
	return ""
}

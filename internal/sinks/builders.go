// Builder chains: the end of a chain of builder calls (a query builder, a request builder) is
// guarded by what the chain calls before it: a chain guard or guard type (OnConflict), an
// idempotency header set by a header setter.

package sinks

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// chainGuarded reports whether the receiver chain of a builder call (x.A().B().Create(v)),
// followed through local variables, calls a chain guard or builds a guard type's literal,
// or starts from a function that returns a builder so guarded (sc.Guarded:
// database.OnConflictUpdate(db, "id").Create(v)).
func (j *Judge) chainGuarded(call *ast.CallExpr, sc Scope) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	return j.guardedValue(sel.X, sc)
}

// guardedValue reports whether the builder e is (x.A().B(), followed through local
// variables) calls a chain guard, builds a guard type's literal, or is made by a function
// that returns a guarded builder (sc.Guarded).
func (j *Judge) guardedValue(e ast.Expr, sc Scope) bool {
	info := j.info()
	return j.Defs.Find(e, defuse.Fills, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(info, x).(*types.Func)
			return ok && (j.Models.Of(fn).ChainGuard || sc.Guarded != nil && sc.Guarded(fn.Origin()))
		case *ast.CompositeLit:
			named, ok := defuse.Deref(info.TypeOf(x)).(*types.Named)
			return ok && named.Obj().Pkg() != nil && j.Models.Index.GuardType(named.Obj().Pkg().Path()+"."+named.Obj().Name())
		}
		return false
	})
}

// GeneratedGuard finds a generated chain guard (ent's OnConflict) in the receiver chain of a
// call into generated code, followed through local variables, or called on the builder
// variable the chain starts from (b.OnConflict(...); b.Exec(ctx): the guard sets the
// builder's conflict options). It returns the kind the guard protects and its name.
func (j *Judge) GeneratedGuard(call *ast.CallExpr) (effect.Kind, string) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	var kind effect.Kind
	var name string
	match := func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(j.info(), c).(*types.Func)
		if !ok || j.Models.Of(fn).GuardKind == "" {
			return false
		}
		kind, name = j.Models.Of(fn).GuardKind, fn.Name()
		return true
	}
	if j.Defs.Find(sel.X, defuse.Fills, match) {
		return kind, name
	}
	if v := j.Defs.RootVar(sel.X); v != nil {
		for _, c := range j.Defs.CallsOn(v) {
			if match(c) {
				return kind, name
			}
		}
	}
	return "", ""
}

// builderEffect judges the end of a builder chain: a query builder guarded by a chain guard
// or guard type, or a request builder (resty) guarded by an idempotency header set by a
// header setter in its chain. With an Arg, the sink takes the HTTP method as that argument
// and only POST and PATCH are effects (an unknown method is not reported, as for http.do).
func (j *Judge) builderEffect(mk keys.Make, s *model.Sink, call *ast.CallExpr, sc Scope) *effect.Effect {
	if s.Arg >= 0 {
		method := strings.ToUpper(j.Defs.ConstString(defuse.ArgAt(call, s.Arg)))
		if method != "POST" && method != "PATCH" {
			return nil
		}
		named := *s
		named.What = "HTTP " + method
		s = &named
	}
	if s.Kind == effect.HTTPWrite && s.URLArg >= 0 && j.requests().Reads(defuse.ArgAt(call, s.URLArg), nil) {
		return nil
	}
	guarded := j.chainGuarded(call, sc)
	if e := j.recordInsert(mk, s, call, guarded, sc); e != nil {
		return e
	}
	if guarded {
		return mk(effect.Protected, s.What+" with conflict handling")
	}
	if key, ok := j.requests().ChainHeaderKey(call); ok {
		return j.keys().Header(mk, s.What, key, sc)
	}
	return mk(effect.Unprotected, s.Problem())
}

// ReturnsGuarded reports whether a function (its body and signature, judged in scope sc)
// returns a guarded query builder (guardedValue) as its first result on every return
// that gives one: an OnConflictUpdate helper that returns db.Clauses(clause.OnConflict{...}).
func (j *Judge) ReturnsGuarded(body *ast.BlockStmt, sig *types.Signature, sc Scope) bool {
	if body == nil || sig == nil || sig.Results().Len() != 1 {
		return false
	}
	if p, ok := types.Unalias(sig.Results().At(0).Type()).(*types.Pointer); !ok || !isNamedStruct(p.Elem()) {
		return false // a builder is a pointer to a struct (*gorm.DB); an error is none
	}
	results, ok := defuse.Returned(body)
	if !ok || len(results) == 0 {
		return false
	}
	for _, r := range results {
		if !j.guardedValue(r, sc) {
			return false
		}
	}
	return true
}

// isNamedStruct reports whether t is a named struct type.
func isNamedStruct(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	_, ok = n.Underlying().(*types.Struct)
	return ok
}

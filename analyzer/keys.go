// Idempotency keys: whether a key is stable (not random, not a constant, made from the job),
// options that carry one, and keys made from a helper's parameters, checked at its callers.

package analyzer

import (
	"go/ast"
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// constantKey reports whether a key is a string constant: the same for every job, so it
// identifies no business operation (the key decision is not answered).
func (a *analysis_) constantKey(key ast.Expr) bool {
	if key == nil {
		return false
	}
	// stripe.String("k") and similar wrappers: look at their single argument.
	if c, ok := ast.Unparen(key).(*ast.CallExpr); ok && len(c.Args) == 1 {
		key = c.Args[0]
	}
	return a.constString(key) != ""
}

// isEmptyString reports whether e is the constant "".
func (a *analysis_) isEmptyString(e ast.Expr) bool {
	tv, ok := a.pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == ""
}

func (a *analysis_) constString(e ast.Expr) string {
	if e == nil {
		return ""
	}
	if tv, ok := a.pass.TypesInfo.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value)
	}
	if v := rootVar(a.pass.TypesInfo, e); v != nil {
		if d := a.def(v); d != nil && d != e {
			if tv, ok := a.pass.TypesInfo.Types[d]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
				return constant.StringVal(tv.Value)
			}
		}
	}
	return ""
}

// keyedEffect judges a call by the key found for it: none, unstable, or stable.
func (a *analysis_) keyedEffect(mk mkEffect, s *model.Sink, key ast.Expr, found bool) *effect.Effect {
	if !found {
		return mk(effect.Unprotected, s.Problem())
	}
	if src := a.unstableSource(key, 0); src != "" {
		return mk(effect.UnstableKey, s.What+" with a key that changes on every retry (made from "+src+")")
	}
	if a.constantKey(key) {
		return mk(effect.UnstableKey, s.What+" with a constant key: every job shares it, so the second job is taken for a duplicate")
	}
	if !a.keyFromInput(key) {
		return mk(effect.UnstableKey, s.What+" with a key made from nothing the job carries (no parameter of "+a.current.name+" reaches it)")
	}
	e := mk(effect.Protected, s.What+" with an idempotency key")
	e.KeyParams = a.keyParams(key)
	return e
}

// keyParams returns the string parameters of the declared function being resolved that a
// key is made from (bit i: parameter i), followed through local variables. A caller of the
// function is then checked for what it passes there (passKey): the key of a helper like
// charge(ctx, key string) is only as stable as its callers' arguments.
func (a *analysis_) keyParams(key ast.Expr) uint64 {
	if key == nil || a.current == nil || a.current.fn == nil {
		return 0
	}
	params := a.current.fn.Signature().Params()
	index := map[*types.Var]int{}
	for i := 0; i < params.Len() && i < 64; i++ {
		if p := params.At(i); isString(p.Type()) {
			index[p] = i
		}
	}
	if len(index) == 0 {
		return 0
	}
	var mask uint64
	a.findInExpr(key, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok {
				if i, ok := index[v]; ok {
					mask |= 1 << i
				}
			}
		}
		return false // visit every node: a key may use several parameters
	})
	return mask
}

// passKey checks, at a call of a function whose effect is keyed by its parameters
// (e.KeyParams), what the caller passes there: a random or clock value, a constant, or
// nothing the caller's job carries makes the effect an unstable key; a value made from the
// caller's own parameters passes the question on to its callers.
func (a *analysis_) passKey(s *site, e effect.Effect) effect.Effect {
	mask := e.KeyParams
	e.KeyParams = 0
	if s.args == nil || e.State != effect.Protected {
		return e // a function value handed on: what it will be called with is not in view
	}
	var args []ast.Expr
	for i := 0; i < 64; i++ {
		if mask&(1<<i) == 0 {
			continue
		}
		if i >= len(s.args) {
			return e
		}
		args = append(args, s.args[i])
	}
	empty := true
	for _, arg := range args {
		empty = empty && a.isEmptyString(arg)
	}
	if empty {
		// Helpers take "" for "no key" (and skip the header): nothing guards this call.
		e.State = effect.Unprotected
		e.Detail += ", but the key passed to " + s.callee + " is empty: the call carries none"
		return e
	}
	fromInput, constant := false, true
	for _, arg := range args {
		if src := a.unstableSource(arg, 0); src != "" {
			e.State = effect.UnstableKey
			e.Detail += ", but the key passed to " + s.callee + " changes on every retry (made from " + src + ")"
			return e
		}
		if !a.constantKey(arg) {
			constant = false
		}
		if a.keyFromInput(arg) {
			fromInput = true
		}
	}
	switch {
	case constant:
		e.State = effect.UnstableKey
		e.Detail += ", but the key passed to " + s.callee + " is a constant: every job shares it, so the second job is taken for a duplicate"
	case !fromInput:
		e.State = effect.UnstableKey
		e.Detail += ", but the key passed to " + s.callee + " is made from nothing the job carries (no parameter of " + a.current.name + " reaches it)"
	default:
		for _, arg := range args {
			e.KeyParams |= a.keyParams(arg)
		}
	}
	return e
}

// keyFromInput reports whether a string key is derived from the job: it uses, directly or
// through local variables, a parameter of the function that makes the call (or of the
// functions enclosing it). Job data reaches a sink through parameters (the task, the
// payload fields a handler passes to a helper, the context asynq.GetTaskID reads); a key
// built only from configuration or package state is the same for every job. Keys that are
// not strings (an asynq.Unique window, River's UniqueOpts) name no value and pass.
func (a *analysis_) keyFromInput(key ast.Expr) bool {
	if key == nil || a.current == nil {
		return true
	}
	if t := a.pass.TypesInfo.TypeOf(key); t == nil || !isString(deref(t)) {
		return true
	}
	params := map[*types.Var]bool{}
	for n := a.current; n != nil; n = n.parent {
		sig := a.signature(n)
		if sig == nil {
			continue
		}
		for i := 0; i < sig.Params().Len(); i++ {
			params[sig.Params().At(i)] = true
		}
	}
	return a.findInExpr(key, func(x ast.Node) bool {
		id, ok := x.(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
		return ok && params[v]
	})
}

// unstableSource returns the name of a random or clock source the key expression is made
// from ("uuid.NewString"), following local variables a few assignments deep, or "".
func (a *analysis_) unstableSource(e ast.Expr, depth int) string {
	if e == nil || depth > 4 {
		return ""
	}
	info := a.pass.TypesInfo
	found := ""
	ast.Inspect(e, func(x ast.Node) bool {
		if found != "" {
			return false
		}
		switch x := x.(type) {
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(info, x).(*types.Func); ok && a.entry(fn).Unstable {
				found = fn.Pkg().Name() + "." + fn.Name()
				return false
			}
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && !v.IsField() {
				for _, d := range a.defs[v] {
					if d != nil && d != e {
						if s := a.unstableSource(d, depth+1); s != "" {
							found = s
							return false
						}
					}
				}
				for _, c := range a.fills[v] {
					if s := a.unstableSource(c, depth+1); s != "" {
						found = s
						return false
					}
				}
			}
		}
		return true
	})
	return found
}

// optionsEffect looks for a key option (asynq.TaskID(k)) among a call's arguments, also
// inside a slice of options spread into it (opts...) when the slice is built in view.
func (a *analysis_) optionsEffect(mk mkEffect, s *model.Sink, call *ast.CallExpr) *effect.Effect {
	var key ast.Expr
	found := false
	var look func(e ast.Expr, depth int)
	look = func(e ast.Expr, depth int) {
		if found || e == nil || depth > 3 {
			return
		}
		ast.Inspect(e, func(x ast.Node) bool {
			if found {
				return false
			}
			switch x := x.(type) {
			case *ast.CallExpr:
				if fn, ok := typeutil.Callee(a.pass.TypesInfo, x).(*types.Func); ok && a.entry(fn).KeyOption && len(x.Args) > 0 {
					key, found = x.Args[0], true
					return false
				}
			case *ast.Ident:
				if v, ok := a.pass.TypesInfo.Uses[x].(*types.Var); ok && !v.IsField() {
					for _, d := range a.defs[v] {
						look(d, depth+1)
					}
					for _, c := range a.callsOn[v] { // opts = append(opts, ...) is a def; v.Add(...) is not
						look(c, depth+1)
					}
				}
			}
			return true
		})
	}
	for _, arg := range call.Args {
		look(arg, 0)
	}
	return a.keyedEffect(mk, s, key, found)
}

// Idempotency keys: the one judgement of whether a key identifies the job (not random, not
// a constant, made from the job), options that carry a key, and keys made from a helper's
// parameters, checked at its callers.

package sinks

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// KeyProblem says why a key does not identify the job, or that it does.
type KeyProblem uint8

const (
	KeyStable     KeyProblem = iota // made from the job, not random, not a constant
	KeyUnstable                     // made from a random or clock source: changes on every retry
	KeyConstant                     // the same for every job
	KeyNotFromJob                   // made from configuration or package state, no parameter
)

// KeyVerdict is the judgement of a key (or of the parts that together make one).
type KeyVerdict struct {
	Problem KeyProblem
	Source  string // for KeyUnstable: the random or clock source ("uuid.NewString")
	In      string // the function whose parameters were looked for, for KeyNotFromJob
}

// sharedKey is what a constant key does to the jobs that share it.
const sharedKey = "every job shares it, so the second job is taken for a duplicate"

// Because says why the key does not identify the job, as a predicate of "the key": "changes
// on every retry (made from uuid.NewString)". constant is what a constant key does ("" for
// the usual sentence).
func (v KeyVerdict) Because(constant string) string {
	if constant == "" {
		constant = sharedKey
	}
	switch v.Problem {
	case KeyUnstable:
		return "changes on every retry (made from " + v.Source + ")"
	case KeyConstant:
		return "is a constant: " + constant
	case KeyNotFromJob:
		return "is made from " + v.nothing()
	}
	return ""
}

func (v KeyVerdict) nothing() string {
	return "nothing the job carries (no parameter of " + v.In + " reaches it)"
}

// headerText is Because for the Idempotency-Key header, whose messages read "Idempotency-Key
// header made from nothing ...".
func (v KeyVerdict) headerText() string {
	if v.Problem == KeyNotFromJob {
		return "made from " + v.nothing()
	}
	return v.Because("")
}

// withKeyText is the judgement for a sink's "<what> with a key ..." messages.
func (v KeyVerdict) withKeyText() string {
	switch v.Problem {
	case KeyUnstable:
		return " with a key that " + v.Because("")
	case KeyConstant:
		return " with a constant key: " + sharedKey
	}
	return " with a key made from " + v.nothing()
}

// JudgeKeys judges the parts that together make a key, used in scope sc: unstable when any
// part is random or from the clock, constant when every part is, not from the job when no
// part uses a parameter of sc. Keys that are not strings (an asynq.Unique window, River's
// UniqueOpts) name no value and pass.
func (j *Judge) JudgeKeys(parts []ast.Expr, sc Scope) KeyVerdict {
	for _, k := range parts {
		if src := j.unstableSource(k); src != "" {
			return KeyVerdict{Problem: KeyUnstable, Source: src}
		}
	}
	constant, fromJob := true, false
	for _, k := range parts {
		constant = constant && j.constantKey(k)
		fromJob = fromJob || j.keyFromInput(k, sc)
	}
	switch {
	case constant:
		return KeyVerdict{Problem: KeyConstant}
	case !fromJob:
		return KeyVerdict{Problem: KeyNotFromJob, In: sc.Name}
	}
	return KeyVerdict{}
}

// constantKey reports whether a key is a string constant: the same for every job, so it
// identifies no business operation (the key decision is not answered).
func (j *Judge) constantKey(key ast.Expr) bool {
	if key == nil {
		return false
	}
	// stripe.String("k") and similar wrappers: look at their single argument.
	if c, ok := ast.Unparen(key).(*ast.CallExpr); ok && len(c.Args) == 1 {
		key = c.Args[0]
	}
	return j.Defs.ConstString(key) != ""
}

// keyedEffect judges a call by the key found for it: none, unstable, or stable.
func (j *Judge) keyedEffect(mk mkEffect, s *model.Sink, key ast.Expr, found bool, sc Scope) *effect.Effect {
	if !found {
		return mk(effect.Unprotected, s.Problem())
	}
	if v := j.JudgeKeys([]ast.Expr{key}, sc); v.Problem != KeyStable {
		return mk(effect.UnstableKey, s.What+v.withKeyText())
	}
	e := mk(effect.Protected, s.What+" with an idempotency key")
	e.KeyParams = j.keyParams(key, sc)
	return e
}

// keyParams returns the string parameters of sc's declared function that a key is made
// from (bit i: parameter i), followed through local variables. A caller of the function is
// then checked for what it passes there (PassKey): the key of a helper like charge(ctx, key
// string) is only as stable as its callers' arguments.
func (j *Judge) keyParams(key ast.Expr, sc Scope) uint64 {
	if key == nil || sc.Func == nil {
		return 0
	}
	params := sc.Func.Signature().Params()
	index := map[*types.Var]int{}
	for i := 0; i < params.Len() && i < 64; i++ {
		if p := params.At(i); defuse.IsString(p.Type()) {
			index[p] = i
		}
	}
	if len(index) == 0 {
		return 0
	}
	var mask uint64
	j.Defs.Find(key, defuse.Fills, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if v, ok := j.info().Uses[id].(*types.Var); ok {
				if i, ok := index[v]; ok {
					mask |= 1 << i
				}
			}
		}
		return false // visit every node: a key may use several parameters
	})
	return mask
}

// PassKey checks, at a call of a function whose effect is keyed by its parameters
// (e.KeyParams), what the caller (scope sc) passes there; args are the call's arguments in
// parameter order (nil for a function value) and callee the hop's name. A random or clock
// value, a constant, or nothing the caller's job carries makes the effect an unstable key;
// a value made from the caller's own parameters passes the question on to its callers.
func (j *Judge) PassKey(args []ast.Expr, callee string, e effect.Effect, sc Scope) effect.Effect {
	mask := e.KeyParams
	e.KeyParams = 0
	if args == nil || e.State != effect.Protected {
		return e // a function value handed on: what it will be called with is not in view
	}
	var keys []ast.Expr
	for i := 0; i < 64; i++ {
		if mask&(1<<i) == 0 {
			continue
		}
		if i >= len(args) {
			return e
		}
		keys = append(keys, args[i])
	}
	empty := true
	for _, arg := range keys {
		empty = empty && j.Defs.IsEmptyString(arg)
	}
	if empty {
		// Helpers take "" for "no key" (and skip the header): nothing guards this call.
		e.State = effect.Unprotected
		e.Detail += ", but the key passed to " + callee + " is empty: the call carries none"
		return e
	}
	if v := j.JudgeKeys(keys, sc); v.Problem != KeyStable {
		e.State = effect.UnstableKey
		e.Detail += ", but the key passed to " + callee + " " + v.Because("")
		return e
	}
	for _, arg := range keys {
		e.KeyParams |= j.keyParams(arg, sc)
	}
	return e
}

// keyFromInput reports whether a string key is derived from the job: it uses, directly or
// through local variables, a parameter of the function that makes the call (or of the
// functions enclosing it). Job data reaches a sink through parameters (the task, the
// payload fields a handler passes to a helper, the context asynq.GetTaskID reads); a key
// built only from configuration or package state is the same for every job.
func (j *Judge) keyFromInput(key ast.Expr, sc Scope) bool {
	if key == nil || sc.Params == nil {
		return true
	}
	if t := j.info().TypeOf(key); t == nil || !defuse.IsString(defuse.Deref(t)) {
		return true
	}
	return j.Defs.Find(key, defuse.Fills, func(x ast.Node) bool {
		id, ok := x.(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := j.info().Uses[id].(*types.Var)
		return ok && sc.Params[v]
	})
}

// unstableSource returns the name of a random or clock source the key expression is made
// from ("uuid.NewString"), following local variables, or "".
func (j *Judge) unstableSource(e ast.Expr) string {
	found := ""
	j.Defs.Find(e, defuse.Fills, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		if fn, ok := typeutil.Callee(j.info(), call).(*types.Func); ok && j.Models.Of(fn).Unstable {
			found = fn.Pkg().Name() + "." + fn.Name()
			return true
		}
		return false
	})
	return found
}

// Unstable reports whether v is assigned from a random or clock source.
func (j *Judge) Unstable(v *types.Var) bool {
	for _, d := range j.Defs.Defs(v) {
		if d != nil && j.unstableSource(d) != "" {
			return true
		}
	}
	return false
}

// optionsEffect looks for a key option (asynq.TaskID(k)) among a call's arguments, also
// inside a slice of options spread into it (opts...) when the slice is built in view.
func (j *Judge) optionsEffect(mk mkEffect, s *model.Sink, call *ast.CallExpr, sc Scope) *effect.Effect {
	var key ast.Expr
	found := false
	isKeyOption := func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(j.info(), c).(*types.Func)
		if ok && j.Models.Of(fn).KeyOption && len(c.Args) > 0 {
			key = c.Args[0]
			return true
		}
		return false
	}
	for _, arg := range call.Args {
		// opts = append(opts, ...) is a definition; opts.Add(...) a call on the variable.
		if j.Defs.Find(arg, defuse.Calls, isKeyOption) {
			found = true
			break
		}
	}
	return j.keyedEffect(mk, s, key, found, sc)
}

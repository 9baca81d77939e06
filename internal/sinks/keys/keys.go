// Package keys is the one judgement of whether an idempotency key identifies the job: not
// random, not a constant, made from the job's data. Every stage that meets a key (a keyed
// sink's argument, an Idempotency-Key header, a provider's key field, a gate's claim key)
// asks it here, so that one key reads the same wherever it is used.
//
// It also owns what every reader of a sink call is given: the Scope the call is judged in
// (whose parameters bring the job's data and carry a key, an HTTP method or statements to
// the callers) and Make, which makes the call's effect.
package keys

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
)

// Judge judges the parts that together make a key, used in scope sc: unstable when any
// part is random or from the clock, constant when every part is, not from the job when no
// part uses a parameter of sc. Keys that are not strings (an asynq.Unique window, River's
// UniqueOpts) name no value and pass.
func (r Reader) Judge(parts []ast.Expr, sc Scope) Verdict {
	for _, k := range parts {
		if src := r.UnstableSource(k); src != "" {
			return Verdict{Problem: Unstable, Source: src}
		}
	}
	constant, fromJob := true, false
	for _, k := range parts {
		constant = constant && r.constantKey(k)
		fromJob = fromJob || r.fromInput(k, sc) || r.dayKey(k)
	}
	switch {
	case constant:
		return Verdict{Problem: Constant}
	case !fromJob:
		return Verdict{Problem: NotFromJob, In: sc.Name}
	}
	return Verdict{}
}

// constantKey reports whether a key is a string constant: the same for every job, so it
// identifies no business operation (the key decision is not answered).
func (r Reader) constantKey(key ast.Expr) bool {
	if key == nil {
		return false
	}
	// stripe.String("k") and similar wrappers: look at their single argument.
	if c, ok := ast.Unparen(key).(*ast.CallExpr); ok && len(c.Args) == 1 {
		key = c.Args[0]
	}
	return r.Defs.ConstString(key) != ""
}

// fromInput reports whether a string key is derived from the job: it uses, directly or
// through local variables, a parameter of the function that makes the call (or of the
// functions enclosing it). Job data reaches a sink through parameters (the task, the
// payload fields a handler passes to a helper, the context asynq.GetTaskID reads, and so
// the rows a query the job runs returns, a range over them included); a key built only
// from configuration or package state is the same for every job.
func (r Reader) fromInput(key ast.Expr, sc Scope) bool {
	if key == nil || sc.Params == nil {
		return true
	}
	if t := r.info().TypeOf(key); t == nil || !defuse.IsString(defuse.Deref(t)) {
		return true
	}
	return r.Defs.Find(key, defuse.Fills|defuse.Ranged, func(x ast.Node) bool {
		id, ok := x.(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := r.info().Uses[id].(*types.Var)
		return ok && sc.Params[v]
	})
}

// UnstableSource returns the name of a random or clock source the key expression is made
// from ("uuid.NewString"), following local variables, or "". A value a read returns
// (storeRead: today's indicator read from a Redis hash named by the date) is what the store
// holds, not made of the key it was read by.
func (r Reader) UnstableSource(e ast.Expr) string {
	found := ""
	r.Defs.Find(e, defuse.Fills, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok || r.fallback(call) {
			return false // a default for a missing value, not what the key is otherwise
		}
		if fn, ok := typeutil.Callee(r.info(), call).(*types.Func); ok && r.Models.Of(fn).Unstable {
			found = fn.Pkg().Name() + "." + fn.Name()
			return true
		}
		return false
	}, defuse.Skip(r.notMadeOf))
	return found
}

// notMadeOf reports whether the search for a key's source stops at x: what a read returns
// (storeRead), the clock read to the day (dayBucket), a default for a missing value
// (fallback). One Skip: a finder keeps the last one it is given.
func (r Reader) notMadeOf(x ast.Node) bool {
	return r.storeRead(x) || r.dayBucket(x) || r.fallback(x)
}

// fallback reports whether x is a default a key's variable is given only when it was empty
// (`if id == "" { id = uuid.NewString() }`, defuse.Index.Fallback): the key is the job's
// whenever the job carries one, and a message without one gets a new key on every run.
func (r Reader) fallback(x ast.Node) bool {
	e, ok := x.(ast.Expr)
	return ok && r.Defs.Fallback(e)
}

// dayKey reports whether a key is made from the clock read to the day (dayBucket): the
// period of a daily job's run, which identifies the run as a job's data would.
func (r Reader) dayKey(key ast.Expr) bool {
	return key != nil && r.Defs.Find(key, defuse.Fills, r.dayBucket)
}

// dayBucket reports whether x is the clock read to the day: a time.Time's Format given a
// constant layout with no time of day in it (time.Now().Format("2006-01-02"), "20060102",
// "2006-01"). A key made from it is the same for every run of the day: a daily job's
// period (a newsletter's "trending-2026-12-07"), which a repeat on the same day shares.
func (r Reader) dayBucket(x ast.Node) bool {
	call, ok := x.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return false
	}
	fn, ok := typeutil.Callee(r.info(), call).(*types.Func)
	if !ok || fn.FullName() != "(time.Time).Format" {
		return false
	}
	layout := r.Defs.ConstString(call.Args[0])
	// Every clock element below a day has a 3, 4 or 5 in it (15, 03, 3, 04, 4, 05, 5, and
	// fractions of a second follow a second), and so does no element of a date.
	return layout != "" && !strings.ContainsAny(layout, "345")
}

// storeRead reports whether x is a call that reads from outside the program: a method given
// a context.Context (a Redis, SQL or HTTP client's, a repository's) that the models take
// for no write and no claim. Its arguments say what to read; its result is what was read.
func (r Reader) storeRead(x ast.Node) bool {
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(r.info(), call).(*types.Func)
	if !ok || fn.Signature().Recv() == nil {
		return false
	}
	if e := r.Models.Of(fn); e.Sink != nil || e.Gate != nil {
		return false
	}
	ps := fn.Signature().Params()
	for i := range ps.Len() {
		if defuse.IsContext(ps.At(i).Type()) {
			return true
		}
	}
	return false
}

// Unstable reports whether v is assigned from a random or clock source.
func (r Reader) Unstable(v *types.Var) bool {
	for _, d := range r.Defs.Defs(v) {
		if d != nil && !r.Defs.Fallback(d) && r.UnstableSource(d) != "" {
			return true
		}
	}
	return false
}

// Params returns the string parameters of sc's declared function that a key is made from
// (bit i: parameter i), followed through local variables. A caller of the function is then
// checked for what it passes there (Pass): the key of a helper like charge(ctx, key string)
// is only as stable as its callers' arguments.
func (r Reader) Params(key ast.Expr, sc Scope) uint64 {
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
	r.Defs.Find(key, defuse.Fills, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if v, ok := r.info().Uses[id].(*types.Var); ok {
				if i, ok := index[v]; ok {
					mask |= 1 << i
				}
			}
		}
		return false // visit every node: a key may use several parameters
	})
	return mask
}

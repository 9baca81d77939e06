package keys

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// Keyed judges a call of sink s by the key found for it (found: one was): none, unstable,
// or stable. A stable key made from sc's parameters is checked again at sc's callers
// (Effect.KeyParams).
func (r Reader) Keyed(mk Make, s *model.Sink, key ast.Expr, found bool, sc Scope) *effect.Effect {
	if !found {
		return mk(effect.Unprotected, s.Problem())
	}
	if v := r.Judge([]ast.Expr{key}, sc); v.Problem != Stable {
		return mk(effect.UnstableKey, s.What+v.withKeyText())
	}
	e := mk(effect.Protected, s.What+" with an idempotency key")
	e.KeyParams = r.Params(key, sc)
	return e
}

// Named judges a write stored under a name (an object's name in a bucket), which replaces
// what is there: no effect (a repeat converges), unless the name is made from a random or
// clock source, and a repeat stores a new object.
func (r Reader) Named(mk Make, s *model.Sink, name ast.Expr) *effect.Effect {
	if name == nil {
		return nil
	}
	src := r.UnstableSource(name)
	if src == "" {
		return nil
	}
	return mk(effect.Unprotected, s.What+" under a new name on every run (made from "+src+"): a repeat stores another object")
}

// Header judges a request (what: "HTTP POST") by the value of its idempotency header.
func (r Reader) Header(mk Make, what string, key ast.Expr, sc Scope) *effect.Effect {
	return r.NamedHeader(mk, what, "Idempotency-Key header", key, sc)
}

// NamedHeader judges a request by the value of the header that carries its key, named by
// header ("Idempotency-Key header", "delivery id header webhook-id").
func (r Reader) NamedHeader(mk Make, what, header string, key ast.Expr, sc Scope) *effect.Effect {
	if p := r.Judge([]ast.Expr{key}, sc); p.Problem != Stable {
		return mk(effect.UnstableKey, header+" "+p.headerText())
	}
	e := mk(effect.Protected, what+" with an "+header)
	if !strings.HasPrefix(header, "Idempotency") {
		e.Detail = what + " with a " + header
	}
	e.KeyParams = r.Params(key, sc)
	return e
}

// Options looks for a key option (asynq.TaskID(k)) among a call's arguments, also inside a
// slice of options spread into it (opts...) when the slice is built in view.
func (r Reader) Options(mk Make, s *model.Sink, call *ast.CallExpr, sc Scope) *effect.Effect {
	key, found := r.keyOption(call.Args)
	e := r.Keyed(mk, s, key, found, sc)
	if found {
		return e
	}
	if call.Ellipsis.IsValid() && len(call.Args) > 0 {
		// Send(ctx, t, opts ...asynq.Option) { c.Enqueue(t, opts...) }: the options are
		// its callers' (PassOptions).
		if p := r.variadicParam(call.Args[len(call.Args)-1], sc); p != 0 {
			e.OptsParam = uint8(p)
			return e
		}
	}
	if p := r.optionsMadeWith(call.Args, sc); p != 0 {
		e.OptsParam = uint8(p)
	} else if s.Topic > 0 && s.Topic <= len(call.Args) {
		// enqueueTask(ctx, task *asynq.Task) { c.EnqueueContext(ctx, task) }: the options
		// each caller made its task with (asynq.NewTask(typ, p, asynq.TaskID(id))) key it.
		e.OptsParam = uint8(r.OwnParam(call.Args[s.Topic-1], sc))
	}
	return e
}

// optionsMadeWith returns 1 + the index of the variadic parameter of sc's declared function
// that one of args was made with, spread into the call that made it (task :=
// asynq.NewTask(typ, payload, opts...), which applies opts when the task is enqueued), or 0.
func (r Reader) optionsMadeWith(args []ast.Expr, sc Scope) int {
	p := 0
	for _, arg := range args {
		r.Defs.Find(arg, defuse.Calls, func(x ast.Node) bool {
			if c, ok := x.(*ast.CallExpr); ok && c.Ellipsis.IsValid() && len(c.Args) > 0 {
				p = r.variadicParam(c.Args[len(c.Args)-1], sc)
			}
			return p != 0
		})
		if p != 0 {
			return p
		}
	}
	return 0
}

// OwnParam returns 1 + the index of the parameter of sc's declared function that e is,
// never assigned in it (the caller's value, ParamIndex's form), or 0.
func (r Reader) OwnParam(e ast.Expr, sc Scope) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return 0
	}
	v, _ := r.info().Uses[id].(*types.Var)
	if v == nil || len(r.Defs.Defs(v)) != 0 {
		return 0
	}
	return ParamIndex(sc, v)
}

// keyOption finds a key option (a modelled key_options call, asynq.TaskID(k)) among args,
// followed through their definitions (opts = append(opts, ...) defines the slice; opts.Add
// calls on it), and returns its key argument.
func (r Reader) keyOption(args []ast.Expr) (key ast.Expr, found bool) {
	for _, arg := range args {
		if r.Defs.Find(arg, defuse.Calls, func(x ast.Node) bool {
			c, ok := x.(*ast.CallExpr)
			if !ok {
				return false
			}
			fn, ok := typeutil.Callee(r.info(), c).(*types.Func)
			if ok && r.Models.Of(fn).KeyOption && len(c.Args) > 0 {
				key = c.Args[0]
				return true
			}
			if ok {
				if k, made := r.madeKeyOption(fn, c); made {
					key = k
					return true
				}
			}
			return false
		}) {
			return key, true
		}
	}
	return nil, false
}

// madeKeyOption reads call, of fn, a function of the package every return of which is a
// key option call (func unique(ttl time.Duration) asynq.Option { return asynq.Unique(ttl)
// }): the key the option is given, as the caller passes it (the caller's argument for a
// parameter of fn that the option is given whole), and true; nil and false otherwise.
func (r Reader) madeKeyOption(fn *types.Func, call *ast.CallExpr) (ast.Expr, bool) {
	decl := r.Defs.Decl(fn)
	if decl == nil || fn.Signature().Results().Len() != 1 {
		return nil, false
	}
	results, ok := defuse.Returned(decl.Body)
	var inner []*ast.CallExpr
	for _, res := range results {
		c, isCall := ast.Unparen(res).(*ast.CallExpr)
		if !isCall {
			ok = false
			break
		}
		f, _ := typeutil.Callee(r.info(), c).(*types.Func)
		if f == nil || !r.Models.Of(f).KeyOption || len(c.Args) == 0 {
			ok = false
			break
		}
		inner = append(inner, c)
	}
	if !ok || len(inner) != 1 {
		return nil, false // one option, so that one key stands for it
	}
	key := inner[0].Args[0]
	if id, isIdent := ast.Unparen(key).(*ast.Ident); isIdent {
		params := fn.Signature().Params()
		for i := 0; i < params.Len() && i < len(call.Args); i++ {
			if r.info().Uses[id] == params.At(i) && len(r.Defs.Defs(params.At(i))) == 0 {
				return call.Args[i], true
			}
		}
	}
	return key, true
}

// variadicParam returns 1 + the index of the variadic parameter of sc's declared function
// that e spreads (opts, or append(opts, more...) whose first argument it is), or 0.
func (r Reader) variadicParam(e ast.Expr, sc Scope) int {
	if sc.Func == nil || !sc.Func.Signature().Variadic() {
		return 0
	}
	e = ast.Unparen(e)
	if c, ok := e.(*ast.CallExpr); ok {
		if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "append" && len(c.Args) > 0 {
			if _, builtin := r.info().Uses[id].(*types.Builtin); builtin {
				e = ast.Unparen(c.Args[0])
			}
		}
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return 0
	}
	v, _ := r.info().Uses[id].(*types.Var)
	params := sc.Func.Signature().Params()
	if v == nil || params.Len() == 0 || params.At(params.Len()-1) != v {
		return 0
	}
	return params.Len()
}

// PassOptions checks, at a call of a function that hands its variadic options to an
// enqueue (e.OptsParam), what the caller passes there (args, the call's arguments in
// parameter order; nil for a function value): a key option (asynq.TaskID(k)) among them
// keys the enqueue, judged as at the enqueue itself (a random key is an unstable one); the
// caller's own variadic options spread there pass the question on; anything else leaves
// the enqueue without a key.
func (r Reader) PassOptions(args []ast.Expr, e effect.Effect, sc Scope) effect.Effect {
	i := int(e.OptsParam) - 1
	e.OptsParam = 0
	if args == nil || i < 0 || i > len(args) {
		return e
	}
	key, found := r.keyOption(args[i:])
	if !found {
		// enqueueTask(ctx, task, opts...) given no options: the task the caller passes
		// may carry them (asynq.NewTask(typ, payload, asynq.TaskID(id))).
		key, found = r.keyOption(args[:i])
	}
	if !found {
		p := 0
		if len(args) > i {
			p = r.variadicParam(args[len(args)-1], sc)
		}
		if p == 0 {
			// The caller made the task it passes with its own callers' options
			// (asynq.NewTask(typ, payload, opts...)), or passes its own task parameter.
			if p = r.optionsMadeWith(args, sc); p == 0 && i < len(args) {
				p = r.OwnParam(args[i], sc)
			}
		}
		e.OptsParam = uint8(p)
		return e
	}
	mkHere := func(state effect.State, detail string) *effect.Effect {
		c := e
		c.State, c.Detail = state, detail
		return &c
	}
	what := strings.TrimSuffix(e.Detail, " without a deduplication id") // the Options shape's Problem
	return *r.Keyed(mkHere, &model.Sink{Kind: e.Kind, Shape: model.Options, What: what}, key, true, sc)
}

// Pass checks, at a call of a function whose effect is keyed by its parameters
// (e.KeyParams), what the caller (scope sc) passes there; args are the call's arguments in
// parameter order (nil for a function value) and callee the hop's name. A random or clock
// value, a constant, or nothing the caller's job carries makes the effect an unstable key;
// a value made from the caller's own parameters passes the question on to its callers.
func (r Reader) Pass(args []ast.Expr, callee string, e effect.Effect, sc Scope) effect.Effect {
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
		empty = empty && r.Defs.IsEmptyString(arg)
	}
	if empty {
		// Helpers take "" for "no key" (and skip the header): nothing guards this call.
		e.State = effect.Unprotected
		e.Detail += ", but the key passed to " + callee + " is empty: the call carries none"
		return e
	}
	if v := r.Judge(keys, sc); v.Problem != Stable {
		e.State = effect.UnstableKey
		e.Detail += ", but the key passed to " + callee + " " + v.Because("")
		return e
	}
	for _, arg := range keys {
		e.KeyParams |= r.Params(arg, sc)
	}
	return e
}

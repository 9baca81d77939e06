package analyzer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sqlstmt"
	"github.com/chokaq/idemlint/internal/strval"
)

// evalSink decides what one call of a sink does: which effect, how protected, and why.
// It returns nil when the call has no effect worth tracking (a read, a GET).
func (a *analysis_) evalSink(n *node, s *model.Sink, fn *types.Func, call *ast.CallExpr) *effect.Effect {
	mk := func(state effect.State, detail string) *effect.Effect {
		return &effect.Effect{Kind: s.Kind, State: state, Detail: detail, Tx: a.txMode(s, call),
			Chain: []effect.Hop{{Func: funcName(fn, nil), Pos: a.shortPos(call.Pos())}}}
	}
	switch s.Shape {
	case model.SQLExec, model.SQLQuery:
		arg := argAt(call, s.Arg)
		if arg == nil {
			return nil
		}
		return a.sqlEffect(mk, a.text(arg), s.Shape == model.SQLQuery)
	case model.SQLPrepared:
		return a.sqlEffect(mk, a.preparedText(call), false)
	case model.SQLBatch:
		return a.batchEffect(mk, argAt(call, s.Arg))
	case model.SQLCopy:
		return mk(effect.Unprotected, "SQL write not safe to repeat: bulk COPY without conflict handling")
	case model.HTTPPost:
		return mk(effect.Unprotected, "HTTP POST without an Idempotency-Key header (this call cannot set one)")
	case model.HTTPDo:
		return a.httpEffect(mk, argAt(call, s.Arg))
	case model.Send:
		return mk(effect.Unprotected, s.Problem())
	case model.ProviderParams:
		return a.providerEffect(mk, s, argAt(call, s.Arg))
	case model.Options:
		return a.optionsEffect(mk, s, call)
	case model.Builder:
		return a.builderEffect(mk, s, call)
	case model.Relative:
		return mk(effect.Unprotected, s.What+" "+fn.Name()+" adds to the stored value: not safe to repeat")
	case model.UpdateExpression:
		return a.updateEffect(mk, s, argAt(call, s.Arg))
	case model.KeyArg:
		key := argAt(call, s.Arg)
		return a.keyedEffect(mk, s, key, key != nil && !a.isEmptyString(key))
	}
	return nil
}

type mkEffect func(effect.State, string) *effect.Effect

// txMode says whether a sink call commits with a database transaction: it is given one
// (River's InsertTx), or its receiver is a modelled transaction or pool type.
func (a *analysis_) txMode(s *model.Sink, call *ast.CallExpr) effect.TxMode {
	if s.InTx {
		return effect.TxIn
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return effect.TxUnknown
	}
	recv, ok := a.pass.TypesInfo.Selections[sel]
	if !ok {
		return effect.TxUnknown
	}
	named, ok := types.Unalias(deref(recv.Recv())).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return effect.TxUnknown
	}
	return a.index.TxMode(named.Obj().Pkg().Path() + "." + named.Obj().Name())
}

func argAt(call *ast.CallExpr, i int) ast.Expr {
	if i < 0 || i >= len(call.Args) {
		return nil
	}
	return call.Args[i]
}

func (a *analysis_) text(e ast.Expr) string {
	return strval.Text(a.pass.TypesInfo, e, a.def)
}

// sqlEffect classifies statement text. query is set for Query*-style calls, which are
// writes only when the text says so.
func (a *analysis_) sqlEffect(mk mkEffect, text string, query bool) *effect.Effect {
	res := sqlstmt.Classify(text)
	switch res.Class {
	case sqlstmt.Read:
		return nil
	case sqlstmt.Unknown:
		if query {
			return nil // an unknown query is far more often a read than a write
		}
		if strings.Trim(text, strval.Hole) == "" {
			return mk(effect.Unprotected, "SQL write not safe to repeat: statement text not known")
		}
		return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason)
	case sqlstmt.NonIdempotent:
		return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason)
	default: // Guarded, Converging
		return mk(effect.Protected, res.Reason)
	}
}

// preparedText finds the text given to Prepare for the statement a call executes on.
func (a *analysis_) preparedText(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return strval.Hole
	}
	v := rootVar(a.pass.TypesInfo, sel.X)
	if v == nil {
		return strval.Hole
	}
	prep, ok := ast.Unparen(a.def(v)).(*ast.CallExpr)
	if !ok {
		return strval.Hole
	}
	if fn, ok := typeutil.Callee(a.pass.TypesInfo, prep).(*types.Func); ok && strings.HasPrefix(fn.Name(), "Prepare") && len(prep.Args) > 0 {
		return a.text(prep.Args[len(prep.Args)-1])
	}
	return strval.Hole
}

// batchEffect classifies the statements queued on a pgx batch (b.Queue(sql, ...)) in view.
func (a *analysis_) batchEffect(mk mkEffect, batch ast.Expr) *effect.Effect {
	v := rootVar(a.pass.TypesInfo, batch)
	var worst *effect.Effect
	found := false
	if v != nil {
		for _, c := range a.callsOn[v] {
			sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
			if sel.Sel.Name != "Queue" || len(c.Args) == 0 {
				continue
			}
			found = true
			e := a.sqlEffect(mk, a.text(c.Args[0]), false)
			if e != nil && (worst == nil || e.Worse(*worst)) {
				worst = e
			}
		}
	}
	if !found {
		return mk(effect.Unprotected, "SQL write not safe to repeat: statements queued on the batch not known")
	}
	return worst
}

// httpEffect reads the method of the request a call sends from where it was built, and
// looks for an Idempotency-Key header set on it.
func (a *analysis_) httpEffect(mk mkEffect, reqExpr ast.Expr) *effect.Effect {
	if reqExpr == nil {
		return nil
	}
	info := a.pass.TypesInfo
	v := rootVar(info, reqExpr)
	src := ast.Unparen(reqExpr)
	if v != nil {
		src = ast.Unparen(a.def(v))
	}
	method := ""
	switch src := src.(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, src).(*types.Func)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "net/http" {
			switch fn.Name() {
			case "NewRequest":
				method = a.constString(argAt(src, 0))
			case "NewRequestWithContext":
				method = a.constString(argAt(src, 1))
			}
		}
	case *ast.UnaryExpr: // &http.Request{Method: ...}
		if lit, ok := ast.Unparen(src.X).(*ast.CompositeLit); ok {
			for _, elt := range lit.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && id.Name == "Method" {
						method = a.constString(kv.Value)
					}
				}
			}
		}
	}
	method = strings.ToUpper(method)
	if method != "POST" && method != "PATCH" {
		// GET, HEAD, PUT, DELETE, OPTIONS are idempotent (RFC 9110); a method not known
		// at compile time is not reported (docs/caveats.md).
		return nil
	}
	if v != nil {
		if key, ok := a.headerKey(v); ok {
			return a.headerEffect(mk, "HTTP "+method, key)
		}
	}
	return mk(effect.Unprotected, "HTTP "+method+" without an Idempotency-Key header")
}

// headerEffect judges a request (what: "HTTP POST") by the value of its idempotency header.
func (a *analysis_) headerEffect(mk mkEffect, what string, key ast.Expr) *effect.Effect {
	if src := a.unstableSource(key, 0); src != "" {
		return mk(effect.UnstableKey, "Idempotency-Key header changes on every retry (made from "+src+")")
	}
	if a.constantKey(key) {
		return mk(effect.UnstableKey, "Idempotency-Key header is a constant: every job shares it, so the second job is taken for a duplicate")
	}
	if !a.keyFromInput(key) {
		return mk(effect.UnstableKey, "Idempotency-Key header made from nothing the job carries (no parameter of "+a.current.name+" reaches it)")
	}
	e := mk(effect.Protected, what+" with an Idempotency-Key header")
	e.KeyParams = a.keyParams(key)
	return e
}

// builderEffect judges the end of a builder chain: a query builder guarded by a chain guard
// or guard type, or a request builder (resty) guarded by an idempotency header set by a
// header setter in its chain. With an Arg, the sink takes the HTTP method as that argument
// and only POST and PATCH are effects (an unknown method is not reported, as for http.do).
func (a *analysis_) builderEffect(mk mkEffect, s *model.Sink, call *ast.CallExpr) *effect.Effect {
	if s.Arg >= 0 {
		method := strings.ToUpper(a.constString(argAt(call, s.Arg)))
		if method != "POST" && method != "PATCH" {
			return nil
		}
		named := *s
		named.What = "HTTP " + method
		s = &named
	}
	if a.chainGuarded(call) {
		return mk(effect.Protected, s.What+" with conflict handling")
	}
	if key, ok := a.chainHeaderKey(call); ok {
		return a.headerEffect(mk, s.What, key)
	}
	return mk(effect.Unprotected, s.Problem())
}

// chainHeaderKey finds the value of an idempotency header set by a header setter in the
// receiver chain of a builder call (client.R().SetHeader("Idempotency-Key", k).Post(u)),
// in the chains assigned to the local variables it starts from, or called on the variable
// at its root (req.SetHeader(...) as a statement of its own).
func (a *analysis_) chainHeaderKey(call *ast.CallExpr) (ast.Expr, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	info := a.pass.TypesInfo
	var key ast.Expr
	setter := func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(info, c).(*types.Func)
		if !ok || !a.entry(fn).HeaderSetter {
			return false
		}
		k, ok := a.setHeaderValue(c)
		if ok {
			key = k
		}
		return ok
	}
	if a.findInExpr(sel.X, setter) {
		return key, true
	}
	if v := rootVar(info, sel.X); v != nil {
		for _, c := range a.callsOn[v] {
			if c != call && setter(c) {
				return key, true
			}
		}
	}
	return nil, false
}

// setHeaderValue returns the value a header setter call gives an idempotency header:
// SetHeader("Idempotency-Key", k), or SetHeaders(map[string]string{"Idempotency-Key": k})
// with the map a literal or a local variable built from one (or assigned h["..."] = k).
func (a *analysis_) setHeaderValue(c *ast.CallExpr) (ast.Expr, bool) {
	switch len(c.Args) {
	case 2:
		if isIdempotencyHeader(a.constString(c.Args[0])) {
			return c.Args[1], true
		}
	case 1:
		m := ast.Unparen(c.Args[0])
		v := rootVar(a.pass.TypesInfo, m)
		if v != nil {
			m = ast.Unparen(a.def(v))
		}
		if lit, ok := m.(*ast.CompositeLit); ok {
			for _, elt := range lit.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok && isIdempotencyHeader(a.constString(kv.Key)) {
					return kv.Value, true
				}
			}
		}
		if v != nil {
			for _, as := range a.fieldSets[v] {
				for i, l := range as.Lhs {
					if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && i < len(as.Rhs) && isIdempotencyHeader(a.constString(ix.Index)) {
						return as.Rhs[i], true
					}
				}
			}
		}
	}
	return nil, false
}

// headerKey finds the value of an idempotency header set on request variable v:
// v.Header.Set(k, x), v.Header.Add(k, x) or v.Header[k] = []string{x}.
func (a *analysis_) headerKey(v *types.Var) (ast.Expr, bool) {
	for _, c := range a.callsOn[v] {
		sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if (sel.Sel.Name == "Set" || sel.Sel.Name == "Add") && len(c.Args) == 2 && isHeaderField(sel.X) &&
			isIdempotencyHeader(a.constString(c.Args[0])) {
			return c.Args[1], true
		}
	}
	for _, as := range a.fieldSets[v] {
		for i, l := range as.Lhs {
			ix, ok := ast.Unparen(l).(*ast.IndexExpr)
			if !ok || !isHeaderField(ix.X) || !isIdempotencyHeader(a.constString(ix.Index)) || i >= len(as.Rhs) {
				continue
			}
			val := as.Rhs[i]
			if lit, ok := ast.Unparen(val).(*ast.CompositeLit); ok && len(lit.Elts) > 0 {
				val = lit.Elts[0]
			}
			return val, true
		}
	}
	return nil, false
}

func isHeaderField(e ast.Expr) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Header"
}

func isIdempotencyHeader(name string) bool {
	for _, h := range model.IdempotencyHeaders {
		if strings.EqualFold(name, h) {
			return true
		}
	}
	return false
}

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

// providerEffect looks for an idempotency key on the params of a provider call: a key field
// in the params literal (in every element of a batch), a setter called on the params
// variable, or the field assigned. Each key found must be stable; the worst one decides.
func (a *analysis_) providerEffect(mk mkEffect, s *model.Sink, params ast.Expr) *effect.Effect {
	k := a.providerKey(params)
	if k.state != litKeyed {
		e := mk(effect.Unprotected, s.Problem())
		if k.state == litPartial {
			e.Detail += " (" + k.missing + ")"
		}
		return e
	}
	if len(k.keys) == 0 { // guarded by conditions alone
		return mk(effect.Protected, s.What+" with a condition that fails on a repeat")
	}
	var worst *effect.Effect
	for _, key := range k.keys {
		e := a.keyedEffect(mk, s, key, true)
		if worst == nil || e.Worse(*worst) {
			worst = e
		}
	}
	return worst
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
		if p := params.At(i); isString(p.Type().Underlying()) {
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
		var sig *types.Signature
		if n.fn != nil {
			sig = n.fn.Signature()
		} else if n.lit != nil {
			sig, _ = a.pass.TypesInfo.TypeOf(n.lit).(*types.Signature)
		}
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

// litState says what a literal (or the value a local variable holds) tells about keys.
type litState uint8

const (
	litNone    litState = iota // no key anywhere in it
	litKeyed                   // a key, or every element of a batch has one
	litPartial                 // some elements of a batch have a key and some do not
)

// litKeys is what keysIn found: the key expressions (one per keyed batch element; none for
// an element guarded by a condition field) and, for a partly keyed batch, which element
// lacks one.
type litKeys struct {
	state   litState
	keys    []ast.Expr
	missing string
}

// condition is what a literal guarded by a condition field alone yields: keyed, no key.
var condition = litKeys{state: litKeyed}

func (a *analysis_) providerKey(params ast.Expr) litKeys {
	if params == nil {
		return litKeys{}
	}
	info := a.pass.TypesInfo
	lit := a.keysIn(params, 0)
	if lit.state == litKeyed {
		return lit
	}
	// A key set on the params variable itself (a setter, or the field assigned) counts even
	// when a batch inside it is only partly keyed: it is the key of the whole request.
	if v := rootVar(info, params); v != nil {
		for _, c := range a.callsOn[v] {
			if fn, ok := typeutil.Callee(info, c).(*types.Func); ok && a.entry(fn).KeySetter && len(c.Args) > 0 {
				return litKeys{state: litKeyed, keys: []ast.Expr{c.Args[0]}}
			}
		}
		for _, as := range a.fieldSets[v] {
			for i, l := range as.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok || i >= len(as.Rhs) {
					continue
				}
				name := a.declaredField(sel)
				if a.index.KeyField(name) {
					return litKeys{state: litKeyed, keys: []ast.Expr{as.Rhs[i]}}
				}
				if a.conditionHolds(name, as.Rhs[i]) {
					return condition
				}
			}
		}
	}
	return lit
}

// keysIn finds key fields inside a (possibly nested, possibly &-taken) composite literal,
// &stripe.PaymentIntentParams{Params: stripe.Params{IdempotencyKey: k}}, following a local
// variable to the value assigned to it. In a slice or array the elements are a batch
// (SQS SendMessageBatch entries): it is keyed only when every element is, and partly keyed
// when some are; a batch in which no element is keyed says nothing (a list of tags).
func (a *analysis_) keysIn(e ast.Expr, depth int) litKeys {
	if e == nil || depth > 4 {
		return litKeys{}
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	switch x := e.(type) {
	case *ast.Ident:
		v, ok := a.pass.TypesInfo.Uses[x].(*types.Var)
		if !ok || v.IsField() {
			return litKeys{}
		}
		if t := a.pass.TypesInfo.TypeOf(x); t != nil && isSliceType(t) {
			return a.batchKeys(a.sliceElems(v), depth)
		}
		return a.keysIn(a.def(v), depth+1)
	case *ast.CompositeLit:
		t := a.pass.TypesInfo.TypeOf(x)
		if t == nil {
			return litKeys{}
		}
		switch deref(t).Underlying().(type) {
		case *types.Struct:
			return a.structKeys(x, depth)
		case *types.Slice, *types.Array:
			elems := make([]ast.Expr, len(x.Elts))
			for i, elt := range x.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					elt = kv.Value
				}
				elems[i] = elt
			}
			return a.batchKeys(elems, depth)
		}
	}
	return litKeys{}
}

// structKeys looks for a key field among a struct literal's fields, then inside its field
// values. A partly keyed batch inside it wins over a key nested elsewhere: the batch's
// unkeyed element is sent either way.
func (a *analysis_) structKeys(lit *ast.CompositeLit, depth int) litKeys {
	t := a.pass.TypesInfo.TypeOf(lit)
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && a.index.KeyField(fieldName(t, id.Name)) {
				return litKeys{state: litKeyed, keys: []ast.Expr{kv.Value}}
			}
		}
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && a.conditionHolds(fieldName(t, id.Name), kv.Value) {
				return condition
			}
		}
	}
	var out litKeys
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch r := a.keysIn(kv.Value, depth+1); {
		case r.state == litPartial:
			return r
		case r.state == litKeyed && out.state == litNone:
			out = r
		}
	}
	return out
}

// batchKeys judges the elements of a batch; a nil element is one not known (a value from
// a call, a spread slice), which counts as unkeyed.
func (a *analysis_) batchKeys(elems []ast.Expr, depth int) litKeys {
	var out litKeys
	firstMissing, keyed := -1, 0
	for i, el := range elems {
		r := a.keysIn(el, depth+1)
		if r.state == litKeyed {
			out.keys = append(out.keys, r.keys...)
			keyed++
			continue
		}
		if r.state == litPartial {
			return r
		}
		if firstMissing < 0 {
			firstMissing = i
		}
	}
	switch {
	case keyed == 0:
		return litKeys{}
	case firstMissing >= 0:
		return litKeys{state: litPartial, missing: fmt.Sprintf("element %d of %d of the batch has none", firstMissing+1, len(elems))}
	}
	out.state = litKeyed
	return out
}

func isSliceType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// sliceElems returns the elements put into the local slice variable v where it is built:
// the elements of the literals assigned to it and the values appended to it
// (v = append(v, x) in a loop). A value not known (the result of a call, a spread slice)
// is nil; make and nil add nothing.
func (a *analysis_) sliceElems(v *types.Var) []ast.Expr {
	var elems []ast.Expr
	for _, d := range a.defs[v] {
		d = ast.Unparen(d)
		if id, ok := d.(*ast.Ident); ok && id.Name == "nil" {
			continue
		}
		switch x := d.(type) {
		case *ast.CompositeLit:
			for _, elt := range x.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					elt = kv.Value
				}
				elems = append(elems, elt)
			}
			continue
		case *ast.CallExpr:
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && len(x.Args) > 0 {
				if b, ok := a.pass.TypesInfo.Uses[id].(*types.Builtin); ok {
					switch b.Name() {
					case "make":
						continue
					case "append":
						if x.Ellipsis.IsValid() {
							elems = append(elems, nil)
						} else {
							elems = append(elems, x.Args[1:]...)
						}
						switch base := ast.Unparen(x.Args[0]).(type) {
						case *ast.CompositeLit: // append([]T{a}, b)
							for _, elt := range base.Elts {
								elems = append(elems, elt)
							}
						case *ast.Ident:
							if base.Name != "nil" && a.pass.TypesInfo.Uses[base] != v {
								elems = append(elems, nil) // appended to another slice
							}
						default:
							elems = append(elems, nil)
						}
						continue
					}
				}
			}
		}
		elems = append(elems, nil)
	}
	return elems
}

// declaredField names the field sel selects (v.IdempotencyKey, v.Params.IdempotencyKey) as
// "pkg.Type.Field" of the struct that declares it, through embedding; "" if no field.
func (a *analysis_) declaredField(sel *ast.SelectorExpr) string {
	s, ok := a.pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.FieldVal {
		return ""
	}
	t := s.Recv()
	idx := s.Index()
	for _, i := range idx[:len(idx)-1] {
		st, ok := deref(t).Underlying().(*types.Struct)
		if !ok {
			return ""
		}
		t = st.Field(i).Type()
	}
	return fieldName(t, sel.Sel.Name)
}

// conditionHolds reports whether value, given to the field named field, is a condition
// that guards the write: the field is a modelled condition field and its text (through a
// one-argument wrapper, aws.String) contains one of the model's strings, in any case.
func (a *analysis_) conditionHolds(field string, value ast.Expr) bool {
	want := a.index.ConditionField(field)
	if len(want) == 0 {
		return false
	}
	text := strings.ToLower(a.text(unwrap(value)))
	for _, w := range want {
		if strings.Contains(text, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// unwrap returns the argument of a one-argument call (aws.String("..."), stripe.String(k)),
// else e.
func unwrap(e ast.Expr) ast.Expr {
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok && len(c.Args) == 1 {
		return c.Args[0]
	}
	return e
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// fieldName renders "pkg/path.Type.Field" for a field of the named type t.
func fieldName(t types.Type, field string) string {
	named, ok := deref(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return ""
	}
	return named.Obj().Pkg().Path() + "." + named.Obj().Name() + "." + field
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

// chainGuarded reports whether the receiver chain of a builder call (x.A().B().Create(v)),
// followed through local variables, calls a chain guard or builds a guard type's literal.
func (a *analysis_) chainGuarded(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	info := a.pass.TypesInfo
	return a.findInExpr(sel.X, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(info, x).(*types.Func)
			return ok && a.entry(fn).ChainGuard
		case *ast.CompositeLit:
			named, ok := deref(info.TypeOf(x)).(*types.Named)
			return ok && named.Obj().Pkg() != nil && a.index.GuardType(named.Obj().Pkg().Path()+"."+named.Obj().Name())
		}
		return false
	})
}

// findInExpr reports whether match holds for a node of e, or of the expressions assigned to
// the local variables e uses, a few assignments deep: "is the builder this call ends made
// with OnConflict", "was this middleware built with WithRetention".
func (a *analysis_) findInExpr(e ast.Expr, match func(ast.Node) bool) bool {
	found := false
	seen := map[*types.Var]bool{}
	var look func(e ast.Expr, depth int)
	look = func(e ast.Expr, depth int) {
		if found || e == nil || depth > 4 {
			return
		}
		ast.Inspect(e, func(x ast.Node) bool {
			if found {
				return false
			}
			if match(x) {
				found = true
				return false
			}
			if id, ok := x.(*ast.Ident); ok {
				if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && !seen[v] {
					seen[v] = true
					for _, d := range a.defs[v] {
						look(d, depth+1)
					}
					for _, c := range a.fills[v] {
						look(c, depth+1)
					}
				}
			}
			return true
		})
	}
	look(e, 0)
	return found
}

// updateEffect judges a write by its update expression (DynamoDB UpdateItem): only a
// relative one is an effect, since an absolute SET converges on a repeat. An expression
// not given in view, or whose text is not known, is not reported. A relative update is
// guarded by a condition field (attribute_not_exists) or a key field on the params.
func (a *analysis_) updateEffect(mk mkEffect, s *model.Sink, params ast.Expr) *effect.Effect {
	expr, ok := a.paramsField(params, s.Field)
	if !ok {
		return nil
	}
	why := relativeUpdate(a.text(unwrap(expr)))
	if why == "" {
		return nil
	}
	e := a.providerEffect(mk, s, params)
	if e.State == effect.Unprotected {
		e.Detail += " (" + why + ")"
	}
	return e
}

// paramsField finds the value given to the field named field ("pkg.Type.Field") in the
// params literal, the literal assigned to the params variable, or an assignment of the
// field on that variable.
func (a *analysis_) paramsField(params ast.Expr, field string) (ast.Expr, bool) {
	if params == nil {
		return nil, false
	}
	want := model.Normalize(field)
	info := a.pass.TypesInfo
	v := rootVar(info, params)
	lit := ast.Unparen(params)
	if v != nil {
		lit = ast.Unparen(a.def(v))
	}
	if u, ok := lit.(*ast.UnaryExpr); ok {
		lit = ast.Unparen(u.X)
	}
	if cl, ok := lit.(*ast.CompositeLit); ok {
		t := info.TypeOf(cl)
		for _, elt := range cl.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && model.Normalize(fieldName(t, id.Name)) == want {
					return kv.Value, true
				}
			}
		}
	}
	if v != nil {
		for _, as := range a.fieldSets[v] {
			for i, l := range as.Lhs {
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && i < len(as.Rhs) && model.Normalize(a.declaredField(sel)) == want {
					return as.Rhs[i], true
				}
			}
		}
	}
	return nil, false
}

var (
	updateClause = regexp.MustCompile(`(?i)\b(SET|REMOVE|ADD|DELETE)\s`)
	updatePath   = regexp.MustCompile(`[#\w][\w.#\[\]]*`)
)

// relativeUpdate says why a DynamoDB update expression adds to what is there (so that a
// repeat applies it twice), or returns "" for one that converges: an ADD clause (to a
// number; ADD to a set converges, but the type is not known), a SET of list_append, or a
// SET whose value computes from the attribute it sets (a = a + :n, a = if_not_exists(a,
// :zero) + :n).
func relativeUpdate(text string) string {
	locs := updateClause.FindAllStringSubmatchIndex(text, -1)
	for i, loc := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := strings.TrimSpace(text[loc[1]:end])
		switch strings.ToUpper(text[loc[2]:loc[3]]) {
		case "ADD":
			return "update expression ADD " + body
		case "SET":
			for _, set := range splitTop(body) {
				lhs, rhs, ok := strings.Cut(set, "=")
				if !ok {
					continue
				}
				lhs, rhs = strings.TrimSpace(lhs), strings.TrimSpace(rhs)
				if strings.Contains(strings.ToLower(rhs), "list_append(") {
					return "update expression SET " + set + " appends to a list"
				}
				if !strings.ContainsAny(rhs, "+-") {
					continue
				}
				if strings.Contains(strings.ToLower(rhs), "if_not_exists(") {
					return "update expression SET " + set + " adds to the attribute"
				}
				for _, p := range updatePath.FindAllString(rhs, -1) {
					if p == lhs {
						return "update expression SET " + set + " adds to the attribute"
					}
				}
			}
		}
	}
	return ""
}

// splitTop splits a SET clause's actions at the commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

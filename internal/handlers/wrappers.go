// Registration wrappers: the application's own functions that hand a parameter to a
// framework (a Runtime.RegisterActivity(a) that calls the worker's, a generic
// Register(mux, pattern, fn) that registers a closure calling fn, a Consume(ctx, sub, f)
// that fetches messages and calls f). What their callers pass there is a handler.

package handlers

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
)

// regUse is one registration a call makes: the arguments that are handed over, to which
// framework, and whether a value's exported methods are what is registered.
type regUse struct {
	args      []ast.Expr
	framework string
	methods   bool
	modelled  bool   // a modelled registration, not a wrapper: its call is the one a fix wraps
	once      string // why what it runs runs at most once per message (effect.ParamReg.Once)
	method    string // the method of the value handed over that is run (effect.ParamReg.Method)
	factory   bool   // the value handed over makes the handler (effect.ParamReg.Factory)
	// topic is the argument that names the topic the handlers are registered for (a
	// modelled registration's topic_arg, or a wrapper's topic parameter: ParamReg.Topic),
	// nil for none; library is the library in which it names topics.
	topic   ast.Expr
	library string
}

// FindWrappers finds the package's registration wrappers. A parameter is a registration
// when, in its function's body (its closures included):
//   - it is handed to a registration: a modelled one, a wrapper of this package, a
//     function of another package whose fact says so, or a method of an interface whose
//     implementations in view register it, directly or inside a closure handed there
//     that calls it;
//   - it is called with a message pulled in the same function or one enclosing the call
//     (msgs, _ := sub.Fetch(n); f(ctx, msgs)): a modelled handler call that pulls, or a
//     delivery received from a channel of deliveries (for d := range msgs { f(ctx, d) }).
//
// A helper that only calls its callback (retry(f), withTx(f)) is no wrapper. Wrappers of
// wrappers are found by iterating to a fixpoint: the set only grows.
func FindWrappers(in Input) (Wrappers, Fields) {
	f := &finder{pkg: in.Pkg, info: in.Info, fset: in.Fset, files: in.Files, graph: in.Graph, defs: in.Defs, models: in.Models}
	w := Wrappers{}
	var decls []*callgraph.Node
	for _, n := range f.graph.Nodes {
		if n.Fn != nil && n.Sig != nil && n.Body != nil && n.Sig.Params().Len() > 0 {
			decls = append(decls, n)
		}
	}
	f.pulledIn = f.pulledParams()
	f.pulled = f.pulledFields()
	f.factories = Fields{}
	for round := 0; round <= len(decls); round++ {
		factories := len(f.factories)
		changed := false
		for _, n := range decls {
			if regs := f.paramRegs(n, w); !slices.Equal(regs, w[n.Fn]) {
				w[n.Fn], changed = regs, true
			}
		}
		if !changed && len(f.factories) == factories {
			break
		}
	}
	for fn, regs := range w {
		if len(regs) == 0 {
			delete(w, fn)
		}
	}
	return w, f.pulled
}

// WithRegisters adds the wrappers' registration parameters to the facts the package
// exports, making a fact for a wrapper that has none; like the others, only exported
// functions and methods get one. facts keeps its order; new ones follow in the graph's.
func WithRegisters(facts []callgraph.FuncFact, nodes []*callgraph.Node, w Wrappers) []callgraph.FuncFact {
	if len(w) == 0 {
		return facts
	}
	done := map[*types.Func]bool{}
	for _, ff := range facts {
		if regs := w[ff.Fn]; len(regs) > 0 {
			ff.Fact.Registers = regs
		}
		done[ff.Fn] = true
	}
	for _, n := range nodes {
		if n.Fn == nil || done[n.Fn] || len(w[n.Fn]) == 0 || (!n.Fn.Exported() && n.Fn.Signature().Recv() == nil) {
			continue
		}
		facts = append(facts, callgraph.FuncFact{Fn: n.Fn, Fact: &effect.Fact{Registers: w[n.Fn]}})
	}
	return facts
}

// paramRegs returns the registration parameters of n, given the wrappers known so far.
func (f *finder) paramRegs(n *callgraph.Node, w Wrappers) []effect.ParamReg {
	params := map[*types.Var]int{}
	for i := 0; i < n.Sig.Params().Len() && i < 256; i++ {
		params[n.Sig.Params().At(i)] = i
	}
	found := map[int]effect.ParamReg{}
	add := func(i int, framework string, methods bool, once, method string, factory bool) {
		if _, ok := found[i]; !ok {
			found[i] = effect.ParamReg{Param: uint8(i), Framework: framework, Methods: methods, Once: once, Method: method, Factory: factory}
		}
	}
	// withTopic notes, on the registration parameter i found through use, the parameter
	// of n that holds the topic use registers it for (Register(topic, h) calling
	// router.AddNoPublisherHandler(name, topic, sub, h)): its callers name the topic.
	withTopic := func(i int, use regUse) {
		r, ok := found[i]
		if !ok || r.Topic != 0 || use.topic == nil {
			return
		}
		if id, isIdent := ast.Unparen(use.topic).(*ast.Ident); isIdent {
			if v, _ := f.info.Uses[id].(*types.Var); v != nil && len(f.defs.Defs(v)) == 0 {
				if t, isParam := params[v]; isParam && t < 255 {
					r.Topic, r.Library = uint8(t+1), use.library
					found[i] = r
				}
			}
		}
	}
	// The enclosing nodes of each call are for the pull shape (iterator literals around it).
	ast.PreorderStack(n.Body, nil, func(x ast.Node, stack []ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, use := range f.regsOf(call, w) {
			for _, arg := range use.args {
				if made := f.madeBy(arg); made != nil && !use.factory {
					// newConsumer(conn, p.handlerFactory()): the factory makes the handler.
					if i, ok := params[made]; ok {
						add(i, use.framework, false, use.once, use.method, true)
						withTopic(i, use)
					} else if made.IsField() && f.factories[made] == nil {
						f.factories[made] = &FieldFact{Framework: use.framework, Method: use.method, Once: use.once}
					}
					continue
				}
				for i, direct := range f.paramsIn(arg, params) {
					add(i, use.framework, use.methods && direct, use.once, use.method, use.factory)
					withTopic(i, use)
				}
			}
		}
		// f(ctx, msg), or h.Handle(ctx, msg) on an interface value h.
		if v, method := f.calledParam(call); v != nil {
			if i, ok := params[v]; ok {
				if p := f.pulledInto(n, stack, call); p.framework != "" {
					add(i, p.framework, false, cmp.Or(f.ackedBefore(n, stack, call), p.once), method, false)
				}
			}
		}
		return true
	})
	// A parameter stored in a field that a receive loop of the package calls with what it
	// pulled: a constructor NewConsumer(reader, h) returning &Consumer{handle: h}, whose
	// Run calls c.handle(ctx, msg) after FetchMessage.
	// So is one stored in a field holding the factory of such a handler (a pool's
	// handlerFactory, called to make each consumer's handler: madeBy).
	if len(f.pulled) > 0 || len(f.factories) > 0 {
		ast.Inspect(n.Body, func(x ast.Node) bool {
			for field, value := range storedFields(f.info, x) {
				p, factory := f.pulled[field], false
				if p == nil {
					p, factory = f.factories[field], true
				}
				if p != nil {
					if id, ok := ast.Unparen(value).(*ast.Ident); ok {
						if v, ok := f.info.Uses[id].(*types.Var); ok {
							if i, ok := params[v]; ok {
								add(i, p.Framework, false, p.Once, p.Method, factory)
							}
						}
					}
				}
			}
			return true
		})
	}
	var out []effect.ParamReg
	for i := 0; i < n.Sig.Params().Len(); i++ {
		if r, ok := found[i]; ok {
			out = append(out, r)
		}
	}
	return out
}

// regsOf returns the registrations call makes: a modelled registration's handler argument
// (every argument from it on, for a variadic one), a wrapper's registration parameters
// (this package's from w, another's from its fact), and for a call of an interface method
// the models do not name, those of its implementations in view and of those a
// program-wide link found.
func (f *finder) regsOf(call *ast.CallExpr, w Wrappers) []regUse {
	fn, ok := typeutil.Callee(f.info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	fn = fn.Origin()
	if r := f.models.Of(fn).Registration; r != nil {
		if r.Arg >= len(call.Args) {
			return nil
		}
		args := call.Args[r.Arg : r.Arg+1]
		if sig := fn.Signature(); sig.Variadic() && r.Arg == sig.Params().Len()-1 {
			args = call.Args[r.Arg:]
		}
		use := regUse{args: args, framework: r.Framework, methods: r.Methods, modelled: true}
		if r.Topic > 0 {
			use.topic, use.library = defuse.ArgAt(call, r.Topic-1), r.Library
		}
		return []regUse{use}
	}
	var lists [][]effect.ParamReg
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		for _, impl := range f.graph.Implementations(fn, call) {
			lists = append(lists, f.wrapperRegs(impl, w))
		}
		// Implementations out of the import cone, from a program-wide link.
		for _, l := range f.graph.Linked(call.Pos()) {
			lists = append(lists, l.Fact.Registers)
		}
	} else {
		lists = append(lists, f.wrapperRegs(fn, w))
	}
	var out []regUse
	seen := map[int]bool{}
	for _, regs := range lists {
		for _, r := range regs {
			if int(r.Param) < len(call.Args) && !seen[int(r.Param)] {
				seen[int(r.Param)] = true
				use := regUse{args: call.Args[r.Param : r.Param+1], framework: r.Framework, methods: r.Methods, once: r.Once, method: r.Method, factory: r.Factory}
				if r.Topic != 0 && int(r.Topic) <= len(call.Args) {
					use.topic, use.library = call.Args[r.Topic-1], r.Library
				}
				out = append(out, use)
			}
		}
	}
	return out
}

// wrapperRegs returns the registration parameters of fn: from w for this package's
// functions, from its fact for another package's.
func (f *finder) wrapperRegs(fn *types.Func, w Wrappers) []effect.ParamReg {
	if fn.Pkg() == f.pkg {
		return w[fn]
	}
	if fact := f.graph.Fact(fn); fact != nil {
		return fact.Registers
	}
	return nil
}

// paramsIn returns the parameters of params that arg hands over, and whether each is the
// argument itself (or a conversion of it), which alone can register a value's methods.
// Outside function literals, any mention of a function-typed parameter hands it over
// (asynq.HandlerFunc(fn), logged(fn)); inside one, a call of it does (the closure runs it
// as the handler). A parameter of another type is handed over only as the argument itself.
func (f *finder) paramsIn(arg ast.Expr, params map[*types.Var]int) map[int]bool {
	out := map[int]bool{}
	param := func(e ast.Expr) (int, *types.Var) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return -1, nil
		}
		v, _ := f.info.Uses[id].(*types.Var)
		if i, ok := params[v]; ok {
			return i, v
		}
		return -1, nil
	}
	direct := ast.Unparen(arg)
	if c, ok := direct.(*ast.CallExpr); ok && len(c.Args) == 1 && f.info.Types[c.Fun].IsType() {
		direct = c.Args[0] // a conversion: asynq.HandlerFunc(fn)
	}
	if i, _ := param(direct); i >= 0 {
		out[i] = true
		return out
	}
	handed := func(i int) {
		if _, ok := out[i]; !ok {
			out[i] = false
		}
	}
	var walk func(x ast.Node, inLit bool)
	walk = func(x ast.Node, inLit bool) {
		ast.Inspect(x, func(y ast.Node) bool {
			switch y := y.(type) {
			case *ast.FuncLit:
				if !inLit {
					walk(y.Body, true)
					return false
				}
			case *ast.CallExpr:
				if i, _ := param(y.Fun); i >= 0 && inLit {
					handed(i)
				}
			case *ast.Ident:
				if i, v := param(y); i >= 0 && !inLit && isFunc(v.Type()) {
					handed(i)
				}
			}
			return true
		})
	}
	walk(arg, false)
	return out
}

func isFunc(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// pull is what a pulled message came from: the framework of its pull, and why its pull
// never delivers it again (a Redis Streams read of only new entries: readOnce), or "".
type pull struct{ framework, once string }

// pulledInto returns the modelled pull (a receive call: sub.Fetch, FetchMessage; a handler
// call that pulls: jetstream Next; a receive from a channel of deliveries: <-msgs, range
// msgs) whose message an argument of call holds (the messages, one of them ranged over, a
// field of it), through the local definitions of n and the literals around call, or the
// zero pull.
func (f *finder) pulledInto(n *callgraph.Node, stack []ast.Node, call *ast.CallExpr) pull {
	via := f.iteratorParams(stack)
	for _, arg := range call.Args {
		if p := f.fromPullFilled(arg, via); p.framework != "" {
			return p
		}
	}
	return pull{}
}

// ackedBefore says why the callback call runs at most once per message when the loop
// around it acknowledges each message before the call (for _, m := range msgs { m.Ack();
// json.Unmarshal(m.Data, &v); f(v) }): a crash after the ack loses the message and nothing
// delivers it again. "" otherwise.
func (f *finder) ackedBefore(n *callgraph.Node, stack []ast.Node, call *ast.CallExpr) string {
	var body *ast.BlockStmt
	for i := len(stack) - 1; i >= 0 && body == nil; i-- {
		switch s := stack[i].(type) {
		case *ast.ForStmt:
			body = s.Body
		case *ast.RangeStmt:
			body = s.Body
		case *ast.FuncLit:
			return "" // the loop is not this call's
		}
	}
	if body == nil {
		return ""
	}
	rg := &regions{info: f.info, models: f.models}
	ack := rg.ackEnd(body.List, body.Lbrace)
	if ack == token.NoPos || ack > call.Pos() {
		return ""
	}
	pos := f.fset.Position(ack)
	return fmt.Sprintf("%s acknowledges each message (%s:%d) before it calls its callback: a crash after the ack loses the message, and nothing delivers it again", n.Name, filepath.Base(pos.Filename), pos.Line)
}

// fromPull returns the modelled pull whose result e is made from, through local variables,
// the range loops over them and the parameters of the callbacks a message iterator is
// given (via), or the zero pull.
func (f *finder) fromPull(e ast.Expr, seen map[*types.Var]bool, via map[*types.Var]ast.Expr) pull {
	var p pull
	f.defs.Find(e, 0, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(f.info, x).(*types.Func)
			if !ok {
				return false
			}
			entry := f.models.Of(fn.Origin())
			if fw := cmp.Or(entry.Receive, entry.HandlerCall); fw != "" {
				p = pull{framework: fw}
			} else {
				p = f.receiveCalls()[x]
			}
			return p.framework != ""
		case *ast.UnaryExpr: // d := <-msgs, msgs a channel of deliveries
			if rc := f.models.DeliveryChan(f.info.TypeOf(x.X)); x.Op == token.ARROW && rc != nil {
				p = pull{framework: rc.Framework}
			}
			return p.framework != ""
		case *ast.Ident:
			v, ok := f.info.Uses[x].(*types.Var)
			if !ok || seen[v] {
				return false
			}
			seen[v] = true
			if p = f.pulledIn[v]; p.framework != "" {
				return true // a parameter the package's loops pass what they pulled
			}
			if r := f.defs.RangedOver(v); r != nil {
				if rc := f.models.DeliveryChan(f.info.TypeOf(r)); rc != nil {
					p = pull{framework: rc.Framework} // for d := range msgs
					return true
				}
				p = f.fromPull(r, seen, via)
				return p.framework != ""
			}
			if r := via[v]; r != nil {
				p = f.fromPull(r, seen, via)
				return p.framework != ""
			}
		}
		return false
	})
	return p
}

// FieldFact is exported on a struct field the package's receive loops call (a function,
// a map or slice of them) or call the one method of (an interface value) with a pulled
// message: what any package stores there (&mq.Consumer{Handle: h}, r.handlers[t] = h) is a
// handler of the framework.
type FieldFact struct {
	Framework string
	Method    string // the interface method called, or "" for a function field
	Once      string // why the call runs at most once per message (ackedBefore), or ""
}

// AFact marks FieldFact as an analysis fact.
func (*FieldFact) AFact() {}

func (f *FieldFact) String() string {
	s := "called-with-message(" + f.Framework
	if f.Method != "" {
		s += " ." + f.Method
	}
	if f.Once != "" {
		s += " once"
	}
	return s + ")"
}

// Fields maps the package's struct fields to what its receive loops do with them.
type Fields map[*types.Var]*FieldFact

// madeBy returns the function-typed parameter or field whose call, with no arguments,
// arg is (p.handlerFactory(), factory()), or nil.
func (f *finder) madeBy(arg ast.Expr) *types.Var {
	call, ok := ast.Unparen(arg).(*ast.CallExpr)
	if !ok || len(call.Args) > 0 {
		return nil
	}
	var id *ast.Ident
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = fun
	case *ast.SelectorExpr:
		id = fun.Sel
	default:
		return nil
	}
	v, ok := f.info.Uses[id].(*types.Var)
	if !ok || !isFunc(v.Type()) {
		return nil
	}
	return v
}

// pullHops is how many calls deep pulledParams follows a pulled message from its loop.
const pullHops = 4

// pulledParams returns the parameters of the package's functions that its receive loops
// pass what they pulled (c.handleMessage(ctx, &msg) after FetchMessage), with the pull's
// framework: what handleMessage does with msg it does with the message. So are those a
// function given a pulled message passes it on to, up to pullHops calls deep, a literal
// called in place included (spawn(ctx, m), then go func(m Message) { c.handle(ctx, m) }(m),
// as a loop bounded by a semaphore runs each message).
func (f *finder) pulledParams() map[*types.Var]pull {
	out := map[*types.Var]pull{}
	f.pulledIn = out // fromPullFilled reads the parameters found so far
	// The first hop walks the receiving functions, each next one only the functions given a
	// pulled message in the hop before.
	var walk []*callgraph.Node
	for _, n := range f.graph.Nodes {
		if n.Body != nil && n.Lit == nil && (len(n.Receives) > 0 || f.receivesChan(n)) {
			walk = append(walk, n)
		}
	}
	for hop := 0; hop < pullHops && len(walk) > 0; hop++ {
		var next []*callgraph.Node
		for _, n := range walk {
			ast.PreorderStack(n.Body, nil, func(x ast.Node, stack []ast.Node) bool {
				call, ok := x.(*ast.CallExpr)
				if !ok {
					return true
				}
				sig, callee := f.calleeOf(call)
				if sig == nil {
					return true
				}
				via := f.iteratorParams(stack)
				for i, arg := range call.Args {
					if i >= sig.Params().Len() || (sig.Variadic() && i >= sig.Params().Len()-1) {
						break
					}
					if param := sig.Params().At(i); out[param].framework == "" {
						if p := f.fromPullFilled(arg, via); p.framework != "" {
							out[param] = p
							if callee != nil && !slices.Contains(next, callee) {
								next = append(next, callee)
							}
						}
					}
				}
				return true
			})
		}
		walk = next
	}
	return out
}

// calleeOf returns the signature whose parameters call binds, of a function of the package
// or of a literal called in place (nil for any other call), and the function's node to walk
// next (nil for a literal, which is walked with the function it is in, and for a function
// with no body).
func (f *finder) calleeOf(call *ast.CallExpr) (*types.Signature, *callgraph.Node) {
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		sig, _ := f.info.TypeOf(lit).(*types.Signature)
		return sig, nil
	}
	fn, ok := typeutil.Callee(f.info, call).(*types.Func)
	if !ok {
		return nil, nil
	}
	n := f.graph.ByFunc[fn.Origin()]
	if n == nil {
		return nil, nil
	}
	if n.Body == nil || n.Lit != nil {
		return fn.Origin().Signature(), nil
	}
	return fn.Origin().Signature(), n
}

// receiveCalls returns the receive calls the call graph found in the package's nodes
// (callgraph.Node.Receives: modelled ones, and those through the package's own interface
// over a modelled reader, or a helper whose fact says it receives), with their frameworks.
func (f *finder) receiveCalls() map[*ast.CallExpr]pull {
	if f.receives == nil {
		f.receives = map[*ast.CallExpr]pull{}
		for _, n := range f.graph.Nodes {
			for _, r := range n.Receives {
				f.receives[r.Call] = pull{r.Framework, readOnce(f.info, f.defs, f.files, f.graph.Nodes, r)}
			}
		}
	}
	return f.receives
}

// receivesChan reports whether n's body (its literals included) receives from a channel
// of deliveries.
func (f *finder) receivesChan(n *callgraph.Node) bool {
	found := false
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.UnaryExpr:
			found = x.Op == token.ARROW && f.models.DeliveryChan(f.info.TypeOf(x.X)) != nil
		case *ast.RangeStmt:
			found = f.models.DeliveryChan(f.info.TypeOf(x.X)) != nil
		}
		return !found
	})
	return found
}

// pulledFields returns the struct fields the package calls with what a modelled pull gave
// (c.handle(ctx, ord), ord decoded from FetchMessage's message; c.h.Handle(ctx, msg) on
// an interface-typed field), in the same function or a literal inside it.
func (f *finder) pulledFields() Fields {
	out := Fields{}
	for _, n := range f.graph.Nodes {
		if n.Body == nil || n.Lit != nil {
			continue // a literal's body is walked with its function's
		}
		ast.PreorderStack(n.Body, nil, func(x ast.Node, stack []ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			field, method := f.calledField(call)
			if field == nil || out[field] != nil {
				return true
			}
			via := f.iteratorParams(stack)
			for _, arg := range call.Args {
				if p := f.fromPullFilled(arg, via); p.framework != "" {
					out[field] = &FieldFact{Framework: p.framework, Method: method, Once: cmp.Or(f.ackedBefore(n, stack, call), p.once)}
					break
				}
			}
			return true
		})
	}
	return out
}

// calledField returns the struct field call calls: c.handle(...) with handle a function
// field, r.handlers[topic](...) or h(...) with h := r.handlers[topic] for a map or slice of
// functions, or c.h.Handle(...) with h a field holding an interface value, with the method
// called; nil otherwise.
func (f *finder) calledField(call *ast.CallExpr) (*types.Var, string) {
	fun := ast.Unparen(call.Fun)
	if id, ok := fun.(*ast.Ident); ok {
		// h, ok := r.handlers[topic]; h(ctx, msg)
		if v, ok := f.info.Uses[id].(*types.Var); ok && !v.IsField() {
			if def, ok := ast.Unparen(f.defs.Def(v)).(*ast.IndexExpr); ok {
				fun = def
			}
		}
	}
	if ix, ok := fun.(*ast.IndexExpr); ok {
		if sel, ok := ast.Unparen(ix.X).(*ast.SelectorExpr); ok {
			if field, ok := f.info.Uses[sel.Sel].(*types.Var); ok && field.IsField() && isFunc(elemOf(field.Type())) {
				return field, ""
			}
		}
		return nil, ""
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	if field, ok := f.info.Uses[sel.Sel].(*types.Var); ok && field.IsField() && isFunc(field.Type()) {
		return field, ""
	}
	inner, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok {
		return nil, ""
	}
	if field, ok := f.info.Uses[inner.Sel].(*types.Var); ok && field.IsField() && f.handlerInterface(field.Type(), call) {
		if _, ok := f.info.Uses[sel.Sel].(*types.Func); ok {
			return field, sel.Sel.Name
		}
	}
	return nil, ""
}

// handlerInterface reports whether a call of a method of an interface value of type t is
// a handler's: a program interface of one method, or of several when the call hands over
// the library's own message (handler.Handle(d) with d an amqp.Delivery: a repository is
// handed the service's values, not the broker's).
func (f *finder) handlerInterface(t types.Type, call *ast.CallExpr) bool {
	if f.programInterface(t) {
		return true
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || !types.IsInterface(named) || named.Obj().Pkg() == nil {
		return false
	}
	if path := named.Obj().Pkg().Path(); !programPath(path, f.pkg) || f.models.Index.Modelled(path) || f.models.Index.ModelledModule(path) {
		// A library's client (sqsiface.SQSAPI, pulsar.Producer) the loop sends on, also
		// where the models name its library's packages below it (rueidis.Client, whose
		// commands are built in rueidis/internal/cmds).
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	for _, a := range call.Args {
		at := types.Unalias(defuse.Deref(f.info.TypeOf(a)))
		if an, ok := at.(*types.Named); ok && an.Obj().Pkg() != nil && f.models.Index.Modelled(an.Obj().Pkg().Path()) {
			if _, ok := an.Underlying().(*types.Struct); ok {
				// Not the library's own method behind the program's interface (a reader
				// interface over kafka.Reader whose CommitMessages takes the message).
				return !declaresMethod(an.Obj().Pkg(), sel.Sel.Name)
			}
		}
	}
	return false
}

// declaresMethod reports whether a type of pkg has a method named name.
func declaresMethod(pkg *types.Package, name string) bool {
	scope := pkg.Scope()
	for _, n := range scope.Names() {
		if tn, ok := scope.Lookup(n).(*types.TypeName); ok && !tn.IsAlias() {
			if obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(tn.Type()), true, pkg, name); obj != nil {
				if _, ok := obj.(*types.Func); ok {
					return true
				}
			}
		}
	}
	return false
}

// elemOf returns the element type of a map or slice type, or nil.
func elemOf(t types.Type) types.Type {
	switch u := t.Underlying().(type) {
	case *types.Map:
		return u.Elem()
	case *types.Slice:
		return u.Elem()
	}
	return nil
}

// programInterface reports whether t is a handler interface of the program: a named
// interface of one method, declared outside the standard library and the modelled ones
// (a Handler, not an io.Writer a loop writes bodies to, a pulsar.Consumer it acks on, or
// a repository whose Save it calls), whose method does not send (a Publisher the loop
// hands retries and dead letters to is its way out, not its handler).
func (f *finder) programInterface(t types.Type) bool {
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	iface, ok := named.Underlying().(*types.Interface)
	path := named.Obj().Pkg().Path()
	return ok && iface.NumMethods() == 1 && !sends(iface.Method(0).Name()) && programPath(path, f.pkg) && !f.models.Index.Modelled(path)
}

// sendVerbs start the names of methods that send a message on (Publish, SendMessage,
// Produce, Emit, Enqueue, Push): a loop calls them to hand a message out.
var sendVerbs = []string{"Publish", "Send", "Produce", "Emit", "Enqueue", "Push"}

// sends reports whether a method's name starts with a send verb, as a whole camel-case
// word (Publish, SendEvent; not Sender or Pushover).
func sends(name string) bool {
	for _, v := range sendVerbs {
		if rest, ok := strings.CutPrefix(name, v); ok && (rest == "" || rest[0] >= 'A' && rest[0] <= 'Z') {
			return true
		}
	}
	return false
}

// calledParam returns the variable call calls: f(...) with f a function, or h.Handle(...)
// with h an interface value, with the method called; nil otherwise.
func (f *finder) calledParam(call *ast.CallExpr) (*types.Var, string) {
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		v, _ := f.info.Uses[fun].(*types.Var)
		return v, ""
	case *ast.SelectorExpr:
		id, ok := ast.Unparen(fun.X).(*ast.Ident)
		if !ok {
			return nil, ""
		}
		if v, ok := f.info.Uses[id].(*types.Var); ok && f.handlerInterface(v.Type(), call) {
			if _, ok := f.info.Uses[fun.Sel].(*types.Func); ok {
				return v, fun.Sel.Name
			}
		}
	}
	return nil, ""
}

// fromPullFilled is fromPull that also follows the calls given a variable's address (the
// payload json.Unmarshal fills from the pulled message).
func (f *finder) fromPullFilled(e ast.Expr, via map[*types.Var]ast.Expr) pull {
	if p := f.fromPull(e, map[*types.Var]bool{}, via); p.framework != "" {
		return p
	}
	var p pull
	f.defs.Find(e, defuse.Fills, func(x ast.Node) bool {
		if c, ok := x.(*ast.CallExpr); ok {
			for _, a := range c.Args {
				if p = f.fromPull(a, map[*types.Var]bool{}, via); p.framework != "" {
					return true
				}
			}
		}
		return false
	})
	return p
}

// storedFields yields, for a composite literal or an assignment, the struct fields it sets
// and the values it sets them to, in source order (&Consumer{handle: h}, c.handle = h; into
// a map or slice field: r.handlers[topic] = h, r.handlers = append(r.handlers, h)). Every
// literal and assignment of a package passes here: it allocates nothing.
func storedFields(info *types.Info, x ast.Node) iter.Seq2[*types.Var, ast.Expr] {
	return func(yield func(*types.Var, ast.Expr) bool) {
		switch x := x.(type) {
		case *ast.CompositeLit:
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok {
						if v, ok := info.Uses[id].(*types.Var); ok && v.IsField() && !yield(v, kv.Value) {
							return
						}
					}
				}
			}
		case *ast.AssignStmt:
			if len(x.Lhs) != len(x.Rhs) {
				return
			}
			for i, l := range x.Lhs {
				l = ast.Unparen(l)
				if ix, ok := l.(*ast.IndexExpr); ok {
					l = ast.Unparen(ix.X)
				}
				sel, ok := l.(*ast.SelectorExpr)
				if !ok {
					continue
				}
				if v, ok := info.Uses[sel.Sel].(*types.Var); ok && v.IsField() {
					value := x.Rhs[i]
					if c, ok := ast.Unparen(value).(*ast.CallExpr); ok && len(c.Args) == 2 {
						if b, ok := info.Uses[calleeIdent(c)].(*types.Builtin); ok && b.Name() == "append" {
							value = c.Args[1]
						}
					}
					if !yield(v, value) {
						return
					}
				}
			}
		}
	}
}

// calleeIdent returns the identifier a call calls (f in f(x)), or nil.
func calleeIdent(c *ast.CallExpr) *ast.Ident {
	id, _ := ast.Unparen(c.Fun).(*ast.Ident)
	return id
}

// handsOn reports whether x calls a field the package's receive loops hand each message
// to (Input.Fields), itself or in a function of the package it calls (c.handleMessage(ctx,
// &msg) calling c.service.SaveFromMessage).
func (f *finder) handsOn(x ast.Node) bool {
	if len(f.fields) == 0 {
		return false
	}
	return f.callsField(x, true)
}

func (f *finder) callsField(x ast.Node, deep bool) bool {
	found := false
	ast.Inspect(x, func(y ast.Node) bool {
		if call, ok := y.(*ast.CallExpr); ok {
			if field, _ := f.calledField(call); field != nil && f.fields[field] != nil {
				found = true
			} else if fn, ok := typeutil.Callee(f.info, call).(*types.Func); ok && deep {
				if n := f.graph.ByFunc[fn.Origin()]; n != nil && n.Body != nil {
					found = f.callsField(n.Body, false)
				}
			}
		}
		return !found
	})
	return found
}

// inWrapper reports whether n is a registration wrapper or a literal inside one.
func (f *finder) inWrapper(n *callgraph.Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Fn != nil && len(f.wrappers[n.Fn]) > 0 {
			return true
		}
	}
	return false
}

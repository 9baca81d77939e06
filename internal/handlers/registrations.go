// Registrations: the calls that hand handlers to a framework or to the runtime middleware,
// and the in-memory deduplicators installed on a router.

package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// registrations is what one walk over the package's calls learns about handlers.
type registrations struct {
	calledLits map[*ast.FuncLit]bool             // literals called on the spot: never handlers
	wrapped    map[*callgraph.Node]bool          // handed to the runtime middleware
	retention  map[*callgraph.Node]bool          // ... whose completion retention is explicit
	review     map[*callgraph.Node]bool          // ... built WithNeedsReview
	registered map[*callgraph.Node]string        // handed to a modelled registration: framework
	dedup      map[*callgraph.Node]string        // ... on a router with an in-memory deduplicator: its name
	regCall    map[*callgraph.Node]*ast.CallExpr // ... by this call (the first)
	wrapTopic  map[*callgraph.Node]*WrapperTopic // handed to a wrapper with a constant topic (the first)
	once       map[*callgraph.Node]string        // ... by a wrapper that acks first: why at most once
	remote     []Remote
	// subscribed are the functions of other packages handed to a modelled registration
	// that names a topic (Subscription), shaped as handlers or not.
	subscribed []Subscription
	// remoteWrapped holds the functions of other packages handed to the runtime
	// middleware here: true when with an explicit completion retention.
	remoteWrapped map[*types.Func]bool
}

// scanRegistrations walks the package's calls once, for registrations and middleware.
func (f *finder) scanRegistrations() registrations {
	regs := registrations{
		calledLits: map[*ast.FuncLit]bool{},
		wrapped:    map[*callgraph.Node]bool{},
		retention:  map[*callgraph.Node]bool{},
		review:     map[*callgraph.Node]bool{},
		registered: map[*callgraph.Node]string{},
		dedup:      map[*callgraph.Node]string{},
		regCall:    map[*callgraph.Node]*ast.CallExpr{},
		wrapTopic:  map[*callgraph.Node]*WrapperTopic{},
		once:       map[*callgraph.Node]string{},

		remoteWrapped: map[*types.Func]bool{},
	}
	info := f.info
	deduped := f.dedupTargets()
	for _, file := range f.files {
		if f.fset != nil && strings.HasSuffix(f.fset.File(file.Pos()).Name(), "_test.go") {
			continue // a test's registration (a mock handed to the consumer) runs in no service
		}
		ast.Inspect(file, func(x ast.Node) bool {
			switch x.(type) {
			case *ast.CompositeLit, *ast.AssignStmt:
				f.registerStored(x, deduped, &regs)
			}
			call, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
				regs.calledLits[lit] = true
			}
			fn, ok := typeutil.Callee(info, call).(*types.Func)
			if !ok || fn.Pkg() == nil {
				return true
			}
			if model.WrapsHandlers(fn.Pkg().Path()) {
				retention, review := f.retentionExplicit(call), f.middlewareBuiltWith(call, model.ReviewOptions)
				for _, arg := range call.Args {
					f.handlerValues(arg, toMiddleware, func(n *callgraph.Node) {
						regs.wrapped[n] = true
						regs.retention[n] = regs.retention[n] || retention
						regs.review[n] = regs.review[n] || review
					}, func(fn *types.Func, _ token.Pos, shaped bool) {
						if !shaped && f.middlewareShape(fn.Signature()) {
							regs.remoteWrapped[fn] = regs.remoteWrapped[fn] || retention
						}
					})
				}
				return true
			}
			for _, use := range f.regsOf(call, f.wrappers) {
				f.registerArgs(call, use, deduped, &regs)
			}
			return true
		})
	}
	for i := range regs.remote {
		r := &regs.remote[i]
		r.Retention, r.Wrapped = regs.remoteWrapped[r.Fn]
	}
	return regs
}

// registerStored records the handlers a composite literal or an assignment stores in a
// field that a receive loop calls with each message (FieldFact): &mq.Consumer{Handle:
// s.place} in a service, r.handlers["orders"] = onOrder in the consumer's own package. The
// loop that calls the field is then no handler (handsOn).
func (f *finder) registerStored(x ast.Node, deduped map[any]string, regs *registrations) {
	for field, value := range storedFields(f.info, x) {
		if !handlerField(field.Type()) || isParam(f.info, value) {
			continue // a wrapper's parameter: its callers' arguments are the handlers (paramRegs)
		}
		ff := f.fields[field]
		if ff == nil && field.Pkg() != f.pkg && f.fieldFact != nil {
			ff = f.fieldFact(field)
		}
		if ff != nil {
			f.registerArgs(nil, regUse{args: []ast.Expr{value}, framework: ff.Framework, once: ff.Once, method: ff.Method}, deduped, regs)
		}
	}
}

// isParam reports whether e is a parameter of the function it is in.
func isParam(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	return ok && v.Kind() == types.ParamVar
}

// handlerField reports whether a field of type t can hold a handler: a function, a map or
// slice of them, or an interface value.
func handlerField(t types.Type) bool {
	return isFunc(t) || isFunc(elemOf(t)) || types.IsInterface(t)
}

// registerArgs records the handlers one registration hands over: a modelled one, or a
// wrapper's parameter (whose call is no modelled registration a fix could wrap).
func (f *finder) registerArgs(call *ast.CallExpr, use regUse, deduped map[any]string, regs *registrations) {
	mode := toFramework
	if use.methods {
		mode = toFrameworkMethods
	}
	dedup := ""
	if use.modelled {
		dedup = f.dedupOf(call, deduped)
	}
	var wt *WrapperTopic
	if !use.modelled && use.topic != nil {
		if t := f.defs.ConstString(use.topic); t != "" {
			wt = &WrapperTopic{Library: use.library, Topic: t, Call: call}
		}
	}
	local := func(n *callgraph.Node) {
		if regs.registered[n] == "" {
			regs.registered[n] = use.framework
			regs.once[n] = use.once
			if use.modelled {
				regs.regCall[n] = call
			}
		}
		if dedup != "" {
			regs.dedup[n] = dedup
		}
		if wt != nil && regs.wrapTopic[n] == nil {
			regs.wrapTopic[n] = wt
		}
	}
	remote := func(remote *types.Func, pos token.Pos, shaped bool) {
		switch {
		case use.modelled && f.namesTopic(call):
			regs.subscribed = append(regs.subscribed, Subscription{Fn: remote, Call: call})
		case wt != nil:
			regs.subscribed = append(regs.subscribed, Subscription{Fn: remote, Call: call, Wrapper: wt})
		}
		if shaped {
			return // its own package knows it is a handler
		}
		r := Remote{Fn: remote, Pos: pos, Framework: use.framework, AtMostOnce: use.once}
		if use.modelled {
			r.RegCall = call
		}
		regs.remote = append(regs.remote, r)
	}
	args := use.args
	if use.factory {
		args = f.factoryResults(args)
	}
	for _, arg := range args {
		if use.method != "" {
			f.methodValues(arg, use.method, local, remote)
			continue
		}
		f.handlerValues(arg, mode, local, remote)
		if use.modelled && f.namesTopic(call) {
			regs.subscribed = append(regs.subscribed, f.remoteHandlerMethods(arg, call)...)
		}
	}
}

// factoryResults returns what the factories args hand over return (the results of a
// literal's return statements, or of a function of the package named there): the
// handlers a pool makes with them.
func (f *finder) factoryResults(args []ast.Expr) []ast.Expr {
	var out []ast.Expr
	for _, arg := range args {
		var body *ast.BlockStmt
		switch a := ast.Unparen(arg).(type) {
		case *ast.FuncLit:
			body = a.Body
		case *ast.Ident, *ast.SelectorExpr:
			id, _ := a.(*ast.Ident)
			if sel, ok := a.(*ast.SelectorExpr); ok {
				id = sel.Sel
			}
			if fn, ok := f.info.Uses[id].(*types.Func); ok {
				if n := f.graph.ByFunc[fn.Origin()]; n != nil {
					body = n.Body
				}
			}
		}
		if body == nil {
			continue
		}
		ast.Inspect(body, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(x.Results) > 0 {
					out = append(out, x.Results[0])
				}
			}
			return true
		})
	}
	return out
}

// methodValues hands over, for a wrapper that calls one method of the interface value it
// is given (h.Handle(ctx, msg)), that method of what arg holds: of its type, declared here
// or in another package, or of each implementation in this package when arg is itself an
// interface value.
func (f *finder) methodValues(arg ast.Expr, method string, local func(*callgraph.Node), remote func(*types.Func, token.Pos, bool)) {
	t := f.info.TypeOf(arg)
	if t == nil {
		return
	}
	if iface, ok := t.Underlying().(*types.Interface); ok {
		f.implementations(iface, func(m *types.Func) {
			if n := f.graph.ByFunc[m]; n != nil && m.Name() == method {
				local(n)
			}
		})
		return
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, f.pkg, method)
	m, ok := obj.(*types.Func)
	if !ok {
		return
	}
	m = m.Origin()
	if n := f.graph.ByFunc[m]; n != nil {
		local(n)
	} else if m.Pkg() != f.pkg {
		remote(m, arg.Pos(), f.shapeOf(m.Signature(), m.Name()) != nil)
	}
}

// namesTopic reports whether call is a modelled registration whose model names its topic
// argument (topic_arg).
func (f *finder) namesTopic(call *ast.CallExpr) bool {
	return topicRegistration(f.info, f.models, call) != nil
}

// remoteHandlerMethods returns, for a value of a named type of another package handed to
// call (mux.Handle(TypeEmail, tasks.NewEmailHandler(db))), its methods shaped as handlers
// (ProcessTask): what the registration runs.
func (f *finder) remoteHandlerMethods(arg ast.Expr, call *ast.CallExpr) []Subscription {
	named, ok := types.Unalias(defuse.Deref(f.info.TypeOf(arg))).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg() == f.pkg || f.models.Index.Modelled(named.Obj().Pkg().Path()) {
		return nil // the library's own adapter (asynq.HandlerFunc) runs what it converts
	}
	if _, ok := named.Underlying().(*types.Interface); ok {
		return nil
	}
	var out []Subscription
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < ms.Len(); i++ {
		if m, ok := ms.At(i).Obj().(*types.Func); ok && m.Exported() && f.shapeOf(m.Signature(), m.Name()) != nil {
			out = append(out, Subscription{Fn: m, Call: call})
		}
	}
	return out
}

// dedupTargets finds where an in-memory deduplicating middleware is installed: calls that
// hand one over (router.AddMiddleware(dedup.Middleware)), by the variable or the call they
// are made on (the router, or the handler AddHandler returned), or by the registration
// itself when it wraps its handler (router.AddHandler(..., dedup.Middleware(h))), to the
// middleware's name.
func (f *finder) dedupTargets() map[any]string {
	out := map[any]string{}
	imports := false
	for _, imp := range f.pkg.Imports() {
		imports = imports || f.models.Index.DedupPackage(imp.Path())
	}
	if !imports {
		return out // most packages: no walk
	}
	info := f.info
	for _, file := range f.files {
		ast.Inspect(file, func(x ast.Node) bool {
			call, ok := x.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			what := ""
			for _, arg := range call.Args {
				ast.Inspect(arg, func(y ast.Node) bool {
					var id *ast.Ident
					switch y := y.(type) {
					case *ast.Ident:
						id = y
					case *ast.SelectorExpr:
						id = y.Sel
					default:
						return what == ""
					}
					if fn, ok := info.Uses[id].(*types.Func); ok && what == "" {
						what = f.models.Of(fn).InProcessDedup
					}
					return what == ""
				})
			}
			if what == "" {
				return true
			}
			if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && f.models.Of(fn).Registration != nil {
				// router.AddHandler(..., dedup.Middleware(h)): this handler only.
				out[call] = what
			} else if c, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok {
				out[c] = what // router.AddHandler(...).AddMiddleware(dedup.Middleware)
			} else if v := f.defs.RootVar(sel.X); v != nil {
				out[v] = what
			}
			return true
		})
	}
	return out
}

// dedupOf returns the name of the in-memory deduplicator installed on what the
// registration call is made on, or "": on the router variable itself, on the handler the
// call returns (directly or through a variable), or on a router the receiver was built
// from (cqrs.NewEventProcessorWithConfig(router, config)).
func (f *finder) dedupOf(call *ast.CallExpr, deduped map[any]string) string {
	if len(deduped) == 0 {
		return ""
	}
	if what := deduped[call]; what != "" {
		return what
	}
	for target, what := range deduped {
		if v, ok := target.(*types.Var); ok {
			for _, d := range f.defs.Defs(v) {
				if d != nil && ast.Unparen(d) == call {
					return what
				}
			}
		}
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	recv := f.defs.RootVar(sel.X)
	if recv == nil {
		return ""
	}
	if what := deduped[recv]; what != "" {
		return what
	}
	if built, ok := ast.Unparen(f.defs.Def(recv)).(*ast.CallExpr); ok {
		for _, arg := range built.Args {
			if v := f.defs.RootVar(arg); v != nil && deduped[v] != "" {
				return deduped[v]
			}
		}
	}
	return ""
}

// handOver says to what a value is handed, which decides what in it counts as a handler.
type handOver uint8

const (
	// toMiddleware: the runtime middleware, whose handlers are func(ctx, job J) error or
	// a framework's shape; its other arguments (key functions, options) are not handlers.
	toMiddleware handOver = iota
	// toFramework: a modelled registration's handler argument.
	toFramework
	// toFrameworkMethods: a registration that registers a value's exported methods.
	toFrameworkMethods
)

// handlerValues finds the functions an argument hands over: literals, functions, method
// values and the methods of a value's named type. Local ones go to local; functions of
// other packages to remote, saying whether their own package knows them as handlers by
// their shape.
func (f *finder) handlerValues(arg ast.Expr, mode handOver, local func(*callgraph.Node), remote func(fn *types.Func, pos token.Pos, shaped bool)) {
	f.handlerValuesAt(arg, mode, local, remote, 0)
}

// handlerValuesAt is handlerValues at a depth of followed lists (StoredElements), which it
// bounds.
func (f *finder) handlerValuesAt(arg ast.Expr, mode handOver, local func(*callgraph.Node), remote func(fn *types.Func, pos token.Pos, shaped bool), depth int) {
	info := f.info
	accept := func(n *callgraph.Node, sig *types.Signature) {
		if mode != toMiddleware || f.middlewareShape(sig) {
			local(n)
		}
	}
	ast.Inspect(arg, func(y ast.Node) bool {
		var obj types.Object
		var pos token.Pos
		switch y := y.(type) {
		case *ast.CallExpr:
			// A function called here is not itself handed over, what it is given may be:
			// idemasynq.Handler(mw, h) hands over h. A constructor of this package
			// (NewHandler(deps)) stands for the handler it returns: the literals it
			// returns, or itself (its effects include those of what it builds).
			// Middleware of this package (withLogging(h)) hands over only h.
			if fn, ok := typeutil.Callee(info, y).(*types.Func); ok {
				if n := f.graph.ByFunc[fn.Origin()]; n != nil && !isMiddleware(n) {
					f.factoryValues(n, mode, accept, local)
				}
			}
			for _, arg := range y.Args {
				f.handlerValuesAt(arg, mode, local, remote, depth)
			}
			if sel, ok := ast.Unparen(y.Fun).(*ast.SelectorExpr); ok {
				f.handlerValuesAt(sel.X, mode, local, remote, depth)
			}
			return false
		case *ast.FuncLit:
			if n := f.graph.ByLit[y]; n != nil {
				sig, _ := info.TypeOf(y).(*types.Signature)
				accept(n, sig)
			}
			return false
		case *ast.Ident:
			obj, pos = info.Uses[y], y.Pos()
			if v, ok := obj.(*types.Var); ok && depth < 2 && !v.IsField() && isFunc(v.Type()) {
				// fn := func(ctx context.Context, m Message) error {...}; c.Subscribe(ctx, fn):
				// the literal a local variable holds, when it is its only value.
				if lit, ok := ast.Unparen(f.defs.Def(v)).(*ast.FuncLit); ok {
					f.handlerValuesAt(lit, mode, local, remote, depth+1)
				}
			}
			if v, ok := obj.(*types.Var); ok && depth < 2 {
				// for _, a := range cfg.Activities { register(a) }: the values the package
				// lists in that field are handed over, each.
				if over := f.defs.RangedOver(v); over != nil {
					for _, el := range f.graph.StoredElements(over) {
						f.handlerValuesAt(el, mode, local, remote, depth+1)
					}
					// for _, j := range jobs.All { register(j.Run) }: a table of another
					// package, whose fact lists its functions.
					if tv := tableVar(info, over); tv != nil && remote != nil {
						for _, fn := range f.tableFuncs(tv) {
							remote(fn, pos, f.shapeOf(fn.Signature(), "") != nil)
						}
					}
				}
			}
		case *ast.SelectorExpr:
			obj, pos = info.Uses[y.Sel], y.Sel.Pos()
		case *ast.CompositeLit:
			f.typeMethods(info.TypeOf(y), mode, local)
		}
		if fn, ok := obj.(*types.Func); ok {
			fn = fn.Origin()
			if iface := interfaceOf(fn); iface != nil {
				f.interfaceValue(fn, recvInterface(info, y, iface), pos, accept)
			} else if n := f.graph.ByFunc[fn]; n != nil {
				accept(n, fn.Signature())
			} else if remote != nil && fn.Pkg() != f.pkg {
				remote(fn, pos, f.shapeOf(fn.Signature(), methodName(fn)) != nil)
			}
			return false // the selector's own name is this function again
		}
		return true
	})
	if t := info.TypeOf(arg); t != nil {
		f.typeMethods(t, mode, local)
		if mode == toFrameworkMethods && remote != nil && depth == 0 {
			f.remoteMethods(t, arg.Pos(), remote)
		}
	}
}

// remoteMethods hands over, for a registration of a value's exported methods (Temporal's
// RegisterActivity(x)), the exported methods of x's type when that type is declared in
// another package: x := payments.New(client); w.RegisterActivity(x) in main registers every
// exported method of *payments.Service, whose effects the facts of its package carry.
func (f *finder) remoteMethods(t types.Type, pos token.Pos, remote func(fn *types.Func, pos token.Pos, shaped bool)) {
	named, ok := types.Unalias(defuse.Deref(t)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg() == f.pkg {
		return
	}
	if _, ok := named.Underlying().(*types.Interface); ok {
		return // an interface value: its implementations are the link's to find
	}
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := 0; i < ms.Len(); i++ {
		if m, ok := ms.At(i).Obj().(*types.Func); ok && m.Exported() && m.Pkg() == named.Obj().Pkg() {
			remote(m, pos, false)
		}
	}
}

// interfaceValue hands over what the interface method value fn (l.Handle with l an
// interface) may run: each implementation's method in this package, a handler of its own,
// and a node at the registration (pos) for the implementations elsewhere, unless those do
// nothing while some of this package's exist.
func (f *finder) interfaceValue(fn *types.Func, iface *types.Interface, pos token.Pos, accept func(*callgraph.Node, *types.Signature)) {
	local := false
	f.implementations(iface, func(m *types.Func) {
		if m.Name() == fn.Name() {
			if n := f.graph.ByFunc[m]; n != nil {
				accept(n, m.Signature())
				local = true
			}
		}
	})
	if d, fresh := f.dispatched(fn, iface, pos); d != nil && (!local || len(d.Effects) > 0) {
		if fresh {
			f.extra = append(f.extra, d)
		}
		accept(d, fn.Signature())
	}
}

// factoryValues hands over what a factory of this package called at a registration
// builds: the literals it returns, each as itself; or the handler methods of the type it
// returns (a constructor of a handler struct); or else the factory (not to the middleware,
// whose handlers have a shape of their own).
func (f *finder) factoryValues(n *callgraph.Node, mode handOver, accept func(*callgraph.Node, *types.Signature), local func(*callgraph.Node)) {
	if lits := f.returnedLits(n); len(lits) > 0 {
		for _, ln := range lits {
			sig, _ := f.info.TypeOf(ln.Lit).(*types.Signature)
			accept(ln, sig)
		}
		return
	}
	if mode == toMiddleware {
		return
	}
	if n.Sig != nil && n.Sig.Results().Len() > 0 {
		// NewSettleHandler(svc) returning &SettleHandler{...}: the handler is the type's
		// method the framework calls (its ProcessTask), not the constructor.
		if _, fn := n.Sig.Results().At(0).Type().Underlying().(*types.Signature); !fn {
			handed := false
			f.typeMethods(n.Sig.Results().At(0).Type(), mode, func(m *callgraph.Node) { handed = true; local(m) })
			if handed {
				return
			}
		}
	}
	local(n)
}

// retentionExplicit reports whether a call into the middleware (m.Wrap(h),
// idemasynq.Handler(mw, h)) uses a middleware built with an explicit retention: the call,
// its receiver or its arguments, through local variables, call WithRetention or NewForJob.
func (f *finder) retentionExplicit(call *ast.CallExpr) bool {
	return f.middlewareBuiltWith(call, model.RetentionCalls)
}

// middlewareBuiltWith reports whether a call into the middleware uses a middleware built
// with one of the runtime's calls names (full names): the call, its receiver or its
// arguments, through local variables, call one.
func (f *finder) middlewareBuiltWith(call *ast.CallExpr, names []string) bool {
	return f.defs.Find(call, defuse.Fills, func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(f.info, c).(*types.Func)
		if !ok {
			return false
		}
		return fn.Pkg() != nil && model.InMiddleware(fn.Pkg().Path()) && slices.Contains(names, fn.Origin().FullName())
	})
}

// typeMethods hands over the methods of t declared in this package that a framework calls:
// those with a handler method shape, or, for a registration of methods, all exported ones.
func (f *finder) typeMethods(t types.Type, mode handOver, local func(*callgraph.Node)) {
	named, ok := defuse.Deref(t).(*types.Named)
	if !ok {
		return
	}
	if iface, ok := named.Underlying().(*types.Interface); ok {
		// A value of an interface type (an asynq.Handler field, a lambda.Handler): the
		// methods of each implementation in view that a framework calls: those with a
		// handler shape, or the one method of a one-method interface.
		f.implementations(iface, func(m *types.Func) {
			if n := f.graph.ByFunc[m]; n != nil && iface.NumMethods() > 0 &&
				((mode == toFrameworkMethods && m.Exported()) || f.shapeOf(m.Signature(), m.Name()) != nil ||
					(iface.NumMethods() == 1 && hasMethod(iface, m.Name()))) {
				local(n)
			}
		})
		return
	}
	for i := 0; i < named.NumMethods(); i++ {
		m := named.Method(i)
		n := f.graph.ByFunc[m]
		if n == nil {
			continue
		}
		if (mode == toFrameworkMethods && m.Exported()) || f.shapeOf(m.Signature(), m.Name()) != nil {
			local(n)
		}
	}
}

// dispatched returns the node for what a framework may run through the interface method
// value handed over at pos, other than the implementations of this package: those of its
// dependencies, and those wired elsewhere that the program-wide link finds. It is made
// once per position (fresh the first time); nil outside any function.
func (f *finder) dispatched(m *types.Func, iface *types.Interface, pos token.Pos) (d *callgraph.Node, fresh bool) {
	if d := f.byPos[pos]; d != nil {
		return d, false
	}
	owner := f.graph.Innermost(pos)
	if owner == nil {
		return nil, false
	}
	d = f.graph.Dispatched(owner, effect.FuncName(m, f.pkg), m, iface, pos)
	f.byPos[pos] = d
	return d, true
}

// recvInterface returns the static type of the method value's receiver expression when it
// is an interface (an implementation must have its whole method set), else iface.
func recvInterface(info *types.Info, x ast.Node, iface *types.Interface) *types.Interface {
	if sel, ok := x.(*ast.SelectorExpr); ok {
		if it, ok := info.TypeOf(sel.X).Underlying().(*types.Interface); ok {
			return it
		}
	}
	return iface
}

// interfaceOf returns the interface whose method fn is, or nil for a concrete method or a
// function.
func interfaceOf(fn *types.Func) *types.Interface {
	recv := fn.Signature().Recv()
	if recv == nil {
		return nil
	}
	iface, _ := recv.Type().Underlying().(*types.Interface)
	return iface
}

// implementations calls yield with each method of each named, non-generic type of this
// package whose value or pointer implements iface (a non-empty interface: every type
// implements any).
func (f *finder) implementations(iface *types.Interface, yield func(*types.Func)) {
	if iface.NumMethods() == 0 {
		return
	}
	scope := f.pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || f.inTest(tn.Pos()) {
			continue // a test double is no handler
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
			continue
		}
		if !types.Implements(named, iface) && !types.Implements(types.NewPointer(named), iface) {
			continue
		}
		for i := 0; i < named.NumMethods(); i++ {
			yield(named.Method(i))
		}
	}
}

// hasMethod reports whether iface declares a method named name.
func hasMethod(iface *types.Interface, name string) bool {
	for i := 0; i < iface.NumMethods(); i++ {
		if iface.Method(i).Name() == name {
			return true
		}
	}
	return false
}

// tableVar returns the package-level variable e names (jobs.All, or All), or nil.
func tableVar(info *types.Info, e ast.Expr) *types.Var {
	id := nameOf(e)
	if id == nil {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	return v
}

// nameOf returns the name an expression that names an object ends in (f, pkg.F, h.method,
// jobs.All), or nil.
func nameOf(e ast.Expr) *ast.Ident {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

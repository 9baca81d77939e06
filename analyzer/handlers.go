package analyzer

import (
	"go/ast"
	"go/token"
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
	// retention: the middleware it is handed to has an explicit completion retention
	// (WithRetention, or jobs that report their own): the ttl decision is answered.
	retention bool
	// dedup names the in-memory deduplicating middleware of the router it is registered on
	// (Watermill's Deduplicator), or "": its findings say that this is not enforcement.
	dedup string
	// regCall is the modelled registration in this package that hands it to its framework
	// (the first one), for the fix that wraps it with the runtime middleware.
	regCall *ast.CallExpr
}

// remoteHandler is a function of another package registered here as a handler, with no
// handler shape by which its own package could have known it was one (a Temporal activity,
// a Lambda function). It is reported at the registration, the only place in view.
type remoteHandler struct {
	fn        *types.Func
	pos       token.Pos
	framework string
}

// registrations is what one walk over the package's calls learns about handlers.
type registrations struct {
	calledLits map[*ast.FuncLit]bool   // literals called on the spot: never handlers
	wrapped    map[*node]bool          // handed to the runtime middleware
	retention  map[*node]bool          // ... whose completion retention is explicit
	registered map[*node]string        // handed to a modelled registration: framework
	dedup      map[*node]string        // ... on a router with an in-memory deduplicator: its name
	regCall    map[*node]*ast.CallExpr // ... by this call (the first)
	remote     []remoteHandler
}

// findHandlers lists the handlers of the package:
//   - methods with a framework's handler method shape (asynq ProcessTask, River Work);
//   - functions with a framework's handler function shape, when exported (another package
//     may register them) or used as a value here (registered, converted, stored);
//   - function literals with such a shape that are not called on the spot;
//   - functions, method values and literals handed to a modelled registration, and the
//     exported methods of a value handed to a registration that registers methods;
//   - functions handed to the runtime middleware (its shape is func(ctx, job J) error);
//   - functions that call a modelled handler call (a webhook signature check);
//   - functions marked //idemlint:handler.
//
// Handlers are reported where they are declared: the diagnostic then sits in the handler's
// body, in the package that owns it, whichever package registers it.
func (a *analysis_) findHandlers() ([]handlerNode, []remoteHandler) {
	regs := a.scanRegistrations()
	var out []handlerNode
	for _, n := range a.nodes {
		wrapped, retention := regs.wrapped[n], regs.retention[n]
		switch {
		case n.marked != nil:
			n.marked.Used = true
			out = append(out, handlerNode{node: n, framework: "directive", wrapped: wrapped, retention: retention})
			continue
		case regs.registered[n] != "":
			out = append(out, handlerNode{node: n, framework: regs.registered[n], wrapped: wrapped, retention: retention})
			continue
		case n.handlerCall != "":
			out = append(out, handlerNode{node: n, framework: n.handlerCall, wrapped: wrapped, retention: retention})
			continue
		case wrapped:
			out = append(out, handlerNode{node: n, framework: "idempotency", wrapped: true, retention: retention})
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
		case n.lit != nil && !regs.calledLits[n.lit]:
			sig, _ = a.pass.TypesInfo.TypeOf(n.lit).(*types.Signature)
		}
		if sig == nil {
			continue
		}
		if shape := a.shapeOf(sig, method); shape != nil {
			if method == "" && n.fn != nil && !n.fn.Exported() && !a.referenced[n.fn] {
				continue // an unexported helper with a handler's signature, called directly
			}
			out = append(out, handlerNode{node: n, framework: shape.Framework, wrapped: false, retention: false})
		}
	}
	for i := range out {
		out[i].dedup = regs.dedup[out[i].node]
		out[i].regCall = regs.regCall[out[i].node]
	}
	return out, regs.remote
}

// shapeOf returns the handler shape sig has as a method named method ("" for functions).
func (a *analysis_) shapeOf(sig *types.Signature, method string) *model.HandlerShape {
	for i, shape := range a.index.Handlers() {
		if shape.Method == method && matchSignature(sig, shape) {
			return &a.index.Handlers()[i]
		}
	}
	return nil
}

// scanRegistrations walks the package's calls once, for registrations and middleware.
func (a *analysis_) scanRegistrations() registrations {
	regs := registrations{
		calledLits: map[*ast.FuncLit]bool{},
		wrapped:    map[*node]bool{},
		retention:  map[*node]bool{},
		registered: map[*node]string{},
		dedup:      map[*node]string{},
		regCall:    map[*node]*ast.CallExpr{},
	}
	info := a.pass.TypesInfo
	deduped := a.dedupTargets()
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(x ast.Node) bool {
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
			if inMiddleware(fn.Pkg().Path()) {
				retention := a.retentionExplicit(call)
				for _, arg := range call.Args {
					a.handlerValues(arg, toMiddleware, func(n *node) {
						regs.wrapped[n] = true
						regs.retention[n] = regs.retention[n] || retention
					}, nil)
				}
				return true
			}
			if r := a.entry(fn).Registration; r != nil && r.Arg < len(call.Args) {
				mode := toFramework
				if r.Methods {
					mode = toFrameworkMethods
				}
				// A variadic handler parameter (cqrs AddHandlers(h ...CommandHandler)) takes
				// every argument from its index on.
				args := call.Args[r.Arg : r.Arg+1]
				if sig := fn.Signature(); sig.Variadic() && r.Arg == sig.Params().Len()-1 {
					args = call.Args[r.Arg:]
				}
				dedup := a.dedupOf(call, deduped)
				for _, arg := range args {
					a.handlerValues(arg, mode,
						func(n *node) {
							if regs.registered[n] == "" {
								regs.registered[n] = r.Framework
								regs.regCall[n] = call
							}
							if dedup != "" {
								regs.dedup[n] = dedup
							}
						},
						func(remote *types.Func, pos token.Pos) {
							regs.remote = append(regs.remote, remoteHandler{remote, pos, r.Framework})
						})
				}
			}
			return true
		})
	}
	return regs
}

// dedupTargets finds where an in-memory deduplicating middleware is installed: calls that
// hand one over (router.AddMiddleware(dedup.Middleware)), by the variable or the call they
// are made on (the router, or the handler AddHandler returned), or by the registration
// itself when it wraps its handler (router.AddHandler(..., dedup.Middleware(h))), to the
// middleware's name.
func (a *analysis_) dedupTargets() map[any]string {
	out := map[any]string{}
	imports := false
	for _, imp := range a.pass.Pkg.Imports() {
		imports = imports || a.index.DedupPackage(imp.Path())
	}
	if !imports {
		return out // most packages: no walk
	}
	info := a.pass.TypesInfo
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(x ast.Node) bool {
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
						what = a.entry(fn).InProcessDedup
					}
					return what == ""
				})
			}
			if what == "" {
				return true
			}
			if fn, ok := typeutil.Callee(info, call).(*types.Func); ok && a.entry(fn).Registration != nil {
				// router.AddHandler(..., dedup.Middleware(h)): this handler only.
				out[call] = what
			} else if c, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok {
				out[c] = what // router.AddHandler(...).AddMiddleware(dedup.Middleware)
			} else if v := rootVar(info, sel.X); v != nil {
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
func (a *analysis_) dedupOf(call *ast.CallExpr, deduped map[any]string) string {
	if len(deduped) == 0 {
		return ""
	}
	if what := deduped[call]; what != "" {
		return what
	}
	info := a.pass.TypesInfo
	for target, what := range deduped {
		if v, ok := target.(*types.Var); ok {
			for _, d := range a.defs[v] {
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
	recv := rootVar(info, sel.X)
	if recv == nil {
		return ""
	}
	if what := deduped[recv]; what != "" {
		return what
	}
	if built, ok := ast.Unparen(a.def(recv)).(*ast.CallExpr); ok {
		for _, arg := range built.Args {
			if v := rootVar(info, arg); v != nil && deduped[v] != "" {
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
// other packages to remote, when their own package could not have known them as handlers.
func (a *analysis_) handlerValues(arg ast.Expr, mode handOver, local func(*node), remote func(*types.Func, token.Pos)) {
	info := a.pass.TypesInfo
	accept := func(n *node, sig *types.Signature) {
		if mode != toMiddleware || a.middlewareShape(sig) {
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
			// (NewHandler(deps)) stands for the handler it returns: its effects include
			// those of the closure it builds.
			if fn, ok := typeutil.Callee(info, y).(*types.Func); ok {
				if n := a.byFunc[fn.Origin()]; n != nil && mode != toMiddleware {
					local(n)
				}
			}
			for _, arg := range y.Args {
				a.handlerValues(arg, mode, local, remote)
			}
			if sel, ok := ast.Unparen(y.Fun).(*ast.SelectorExpr); ok {
				a.handlerValues(sel.X, mode, local, remote)
			}
			return false
		case *ast.FuncLit:
			if n := a.byLit[y]; n != nil {
				sig, _ := info.TypeOf(y).(*types.Signature)
				accept(n, sig)
			}
			return false
		case *ast.Ident:
			obj, pos = info.Uses[y], y.Pos()
		case *ast.SelectorExpr:
			obj, pos = info.Uses[y.Sel], y.Sel.Pos()
		case *ast.CompositeLit:
			a.typeMethods(info.TypeOf(y), mode, local)
		}
		if fn, ok := obj.(*types.Func); ok {
			fn = fn.Origin()
			if n := a.byFunc[fn]; n != nil {
				accept(n, fn.Signature())
			} else if remote != nil && fn.Pkg() != a.pass.Pkg && a.shapeOf(fn.Signature(), methodName(fn)) == nil {
				remote(fn, pos)
			}
			return false // the selector's own name is this function again
		}
		return true
	})
	if t := info.TypeOf(arg); t != nil {
		a.typeMethods(t, mode, local)
	}
}

// retentionExplicit reports whether a call into the middleware (m.Wrap(h),
// idemasynq.Handler(mw, h)) uses a middleware built with an explicit retention: the call,
// its receiver or its arguments, through local variables, call WithRetention or NewForJob.
func (a *analysis_) retentionExplicit(call *ast.CallExpr) bool {
	return a.findInExpr(call, func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(a.pass.TypesInfo, c).(*types.Func)
		if !ok {
			return false
		}
		return fn.Pkg() != nil && inMiddleware(fn.Pkg().Path()) && isRetentionCall(fn)
	})
}

func isRetentionCall(fn *types.Func) bool {
	name := fn.Origin().FullName()
	for _, r := range model.RetentionCalls {
		if name == r {
			return true
		}
	}
	return false
}

// middlewareShape reports whether sig can be a handler handed to the runtime middleware:
// func(context.Context, J) error, or a framework's shape.
func (a *analysis_) middlewareShape(sig *types.Signature) bool {
	if sig == nil {
		return false
	}
	if a.shapeOf(sig, "") != nil {
		return true
	}
	p, r := sig.Params(), sig.Results()
	return p.Len() == 2 && matchType(p.At(0).Type(), model.TypeRef{Path: "context", Name: "Context"}) &&
		r.Len() == 1 && matchType(r.At(0).Type(), model.TypeRef{Name: "error"})
}

func methodName(fn *types.Func) string {
	if fn.Signature().Recv() != nil {
		return fn.Name()
	}
	return ""
}

// typeMethods hands over the methods of t declared in this package that a framework calls:
// those with a handler method shape, or, for a registration of methods, all exported ones.
func (a *analysis_) typeMethods(t types.Type, mode handOver, local func(*node)) {
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
		if (mode == toFrameworkMethods && m.Exported()) || a.shapeOf(m.Signature(), m.Name()) != nil {
			local(n)
		}
	}
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

func inMiddleware(path string) bool {
	return path == model.MiddlewarePath || strings.HasPrefix(path, model.MiddlewarePath+"/")
}

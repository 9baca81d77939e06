package callgraph

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks"
)

// builder makes the nodes of a package and resolves every call site once, at Build: what a
// call brings (a sink, a callee of the package or with a fact, an interface's
// implementations, the function values it runs) is decided here, and Solve only propagates
// along the sites. It hands each kind of call to the helper whose job it is.
type builder struct {
	*core
	values   *valueResolver
	dispatch *dispatcher
	receives *receiveFinder
	// generated caches generatedPkg, per package.
	generated map[*types.Package]bool
	// stepArgs are the function arguments of the modelled step calls of each node, and
	// stepLits the literals such an argument holds through a local variable (markSteps).
	stepArgs map[*Node][]stepArg
	stepLits map[*ast.FuncLit]effect.StepMode
}

// build makes a node per function declaration and literal, then resolves the sites of each,
// then marks the sites inside receive regions.
func (b *builder) build() {
	in := b.in
	for _, f := range in.Files {
		df := in.Directives(f)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := in.Info.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			n := &Node{Fn: fn, Decl: fd, Name: effect.FuncName(fn, in.Pkg), Body: fd.Body, File: df, Sig: fn.Signature()}
			n.readDirectives(df.InDoc(fd.Doc))
			b.add(n)
			b.ByFunc[fn] = n
			b.collectLits(n, fd.Body, df)
		}
	}
	for _, n := range b.Nodes {
		n.scope = b.newScope(n)
	}
	b.values.solveCalls()
	b.values.solveFieldCalls()
	for _, n := range b.Nodes {
		b.resolve(n)
	}
	c := collections{builder: b, fills: map[fillKey]fill{}}
	for _, n := range b.Nodes {
		c.mark(n)
	}
	if len(b.stepArgs) > 0 {
		b.markSteps()
	}
	for _, n := range b.Nodes {
		b.markTails(n)
		b.markDropped(n)
		sites := n.sitePositions()
		b.markFailures(n, sites)
		b.markDeadLetters(n, sites)
		b.markReadNames(n)
		b.markErrorLeaves(n, sites)
		b.markDead(n)
	}
	if b.in.ReceiveSpan != nil {
		for _, n := range b.Nodes {
			b.markRegional(n)
		}
	}
}

// collectLits makes a node for each function literal directly or indirectly inside body.
func (b *builder) collectLits(outer *Node, body ast.Node, df *directive.File) {
	ast.Inspect(body, func(x ast.Node) bool {
		lit, ok := x.(*ast.FuncLit)
		if !ok || x == body {
			return true
		}
		if _, seen := b.ByLit[lit]; seen {
			return false
		}
		sig, _ := b.in.Info.TypeOf(lit).(*types.Signature)
		n := &Node{Lit: lit, Name: "func literal in " + outer.Name, Body: lit.Body, File: df, Parent: outer, Sig: sig}
		b.add(n)
		b.ByLit[lit] = n
		b.collectLits(n, lit.Body, df)
		return false
	})
}

// newScope is the scope sink calls in n are judged in: its name, its declared function, and
// the parameters of n and of the functions enclosing it.
func (b *builder) newScope(n *Node) sinks.Scope {
	sc := sinks.Scope{Name: n.Name, Func: n.Fn, Params: map[*types.Var]bool{}, Built: b.RequestOf, Guarded: b.GuardOf}
	for m := n; m != nil; m = m.Parent {
		if m.Sig == nil {
			continue
		}
		for i := 0; i < m.Sig.Params().Len(); i++ {
			sc.Params[m.Sig.Params().At(i)] = true
		}
	}
	for m := n; m != nil; m = m.Parent {
		b.receives.receivedVars(m.Body, sc.Params)
	}
	return sc
}

// resolve finds the sites of n: calls, function values and closures in its body (but not
// in the bodies of nested literals, which are nodes of their own and enter as closures).
func (b *builder) resolve(n *Node) {
	b.visit(n)
	info := b.in.Info
	// routed are the function values the calls so far routed through their callees
	// (routeArgs, routeFields): they do not also enter n where they are written.
	routed := map[ast.Expr]bool{}
	var visit func(x ast.Node) bool
	visit = func(x ast.Node) bool {
		if e, ok := x.(ast.Expr); ok && routed[e] {
			if sel, ok := unconvert(info, e).(*ast.SelectorExpr); ok {
				ast.Inspect(sel.X, visit) // the receiver of a routed method value is evaluated here
			}
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			if inner := b.ByLit[x]; inner != nil && inner != n {
				n.Sites = append(n.Sites, Site{Pos: x.Pos(), line: b.line(x.Pos()), local: inner, inline: true})
				return false
			}
		case *ast.CallExpr:
			for e := range b.resolveCall(n, x) {
				routed[e] = true
			}
			// Visit the arguments and the receiver, not the callee name itself (it is not
			// a function value escaping).
			switch fun := ast.Unparen(x.Fun).(type) {
			case *ast.SelectorExpr:
				ast.Inspect(fun.X, visit)
			case *ast.Ident:
			case *ast.IndexExpr: // f[T](...)
			case *ast.IndexListExpr:
			default:
				ast.Inspect(fun, visit)
			}
			for _, arg := range x.Args {
				ast.Inspect(arg, visit)
			}
			return false
		case *ast.Ident:
			if fn, ok := info.Uses[x].(*types.Func); ok {
				b.valueRef(n, fn, x.Pos())
			}
		case *ast.SelectorExpr:
			if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
				b.valueRef(n, fn, x.Sel.Pos())
				ast.Inspect(x.X, visit)
				return false
			}
		}
		return true
	}
	ast.Inspect(n.Body, func(x ast.Node) bool {
		if x == n.Body {
			return true
		}
		return visit(x)
	})
	if len(n.Sites) > 0 {
		b.attachGates(n)
	}
}

// attachGates attaches to each site of n the gates covering it: those with a stable key,
// else one without (which says why it guards nothing).
func (b *builder) attachGates(n *Node) {
	gates := b.gatesOf(n)
	for i := range n.Sites {
		s := &n.Sites[i]
		var stable []*sinks.Gate
		var unstable *sinks.Gate
		for _, gt := range gates {
			switch {
			case !gt.Covers(s.Pos):
			case gt.Why == "":
				stable = append(stable, gt)
			case unstable == nil:
				unstable = gt
			}
		}
		s.gates = stable
		if len(stable) == 0 && unstable != nil {
			s.gates = []*sinks.Gate{unstable}
		}
	}
}

// gatesOf returns the claims checked in n's body, read once.
func (b *builder) gatesOf(n *Node) []*sinks.Gate {
	if !n.gatesRead {
		n.gates, n.gatesRead = b.in.Judge.Gates(n.Body, n.scope, b.ClaimOf), true
	}
	return n.gates
}

// valueRef handles a function used as a value: a method value, a callback, a handler handed
// to a framework. It may be called from here, so its effects count as n's.
func (b *builder) valueRef(n *Node, fn *types.Func, pos token.Pos) {
	fn = fn.Origin()
	b.Referenced[fn] = true
	b.callTarget(n, fn, pos, nil)
}

// given reports whether v, a function value called, is one the caller was given: a
// parameter (its own, or one of the function around its literal) or a struct field, of a
// type not the standard library's (a context.CancelFunc is its maker's business), as seen
// from the package whose path is own (model.OfProgram).
func given(v *types.Var, own string) bool {
	if v.Kind() != types.ParamVar && v.Kind() != types.FieldVar {
		return false
	}
	if named, ok := types.Unalias(v.Type()).(*types.Named); ok && named.Obj().Pkg() != nil {
		return model.OfProgram(named.Obj().Pkg().Path(), own)
	}
	return true
}

// resolveCall adds the sites of one call; it returns the arguments whose function values
// were routed through the callee (routeArgs).
func (b *builder) resolveCall(n *Node, call *ast.CallExpr) map[ast.Expr]bool {
	callee := typeutil.Callee(b.in.Info, call)
	fn, ok := callee.(*types.Func)
	if !ok {
		v, isVar := callee.(*types.Var)
		open := -1
		if isVar {
			// f(x) with f a parameter, field or variable: what it holds may not all be in
			// view (a parameter's never is); what the package stores there is followed.
			o := OpenCall{Caller: n, Pos: call.Pos(), Kind: OpenFuncValue}
			if given(v, b.in.Pkg.Path()) {
				o.Name = types.ExprString(call.Fun)
			} else {
				o.InView = true // a local made by a call (cancel from context.WithCancel): its maker's
			}
			open = len(b.Open)
			b.Open = append(b.Open, o)
		}
		if _, isIndex := ast.Unparen(call.Fun).(*ast.IndexExpr); isVar || (callee == nil && isIndex) {
			sites := len(n.Sites)
			b.values.valueCall(n, call)
			if open >= 0 && len(n.Sites) > sites {
				b.Open[open].InView = true
			}
		}
		return nil
	}
	fn = fn.Origin()
	entry := b.in.Judge.Models.Of(fn)
	if entry.Read {
		return nil // the models say it only reads, whatever its body or facts hold (reads)
	}
	if b.neutral(fn) {
		// Logging, metrics, tracing, error reporting (neutral, an application's logger
		// method): what it reaches is not the handler's effect.
		return nil
	}
	if entry.HandlerCall != "" && n.HandlerCall == "" {
		n.HandlerCall = entry.HandlerCall
	}
	if n.HandlerCall == "" {
		n.HandlerCall = b.webhookCheck(n, fn, call) // signatures.go
	}
	if fw := b.receives.receiveOf(n, fn, call); fw != "" {
		n.Receives = append(n.Receives, Receive{Call: call, Framework: fw, Read: b.receives.readBehind(fn, call)})
	}
	if entry.TxCompletion {
		n.completesHere = true
	}
	if entry.Step {
		b.stepCall(n, call, effect.InStep)
	} else if entry.TxStep {
		b.stepCall(n, call, effect.InTxStep)
	}
	if s := entry.Sink; s != nil {
		if e := b.in.Judge.Eval(call, s, fn, n.scope); e != nil {
			n.Sites = append(n.Sites, Site{Pos: call.Pos(), line: b.line(call.Pos()), sink: e})
		}
		return nil
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		if !entry.Opaque {
			b.dispatch.dispatch(n, fn, call)
		}
		return nil
	}
	before := len(n.Sites)
	args := callArgs(b.in.Info, call)
	b.callTarget(n, fn, call.Pos(), args)
	if len(n.Sites) > before && n.Sites[before].fact != nil && b.generatedPkg(fn.Pkg()) {
		n.Sites[before].guard, n.Sites[before].guardBy = b.in.Judge.GeneratedGuard(call)
	}
	return b.values.routeFields(n, fn, call, args, b.values.routeArgs(n, fn, call, args))
}

// generatedPkg reports, once per package, whether calls into pkg may carry a generated
// chain guard: every call with a fact asks.
func (b *builder) generatedPkg(pkg *types.Package) bool {
	gen, ok := b.generated[pkg]
	if !ok {
		if b.generated == nil {
			b.generated = map[*types.Package]bool{}
		}
		gen = b.in.Judge.Models.Index.Generated(pkg)
		b.generated[pkg] = gen
	}
	return gen
}

// stepCall notes the function arguments of a modelled step call in n (idempotency.Step(ctx,
// "charge", fn)): what they run is a recovery point. A literal, a function or method value
// written in the argument, or a local variable assigned a literal, is followed.
func (b *builder) stepCall(n *Node, call *ast.CallExpr, mode effect.StepMode) {
	for _, arg := range call.Args {
		t := b.in.Info.TypeOf(arg)
		if t == nil {
			continue
		}
		if _, ok := t.Underlying().(*types.Signature); !ok {
			continue
		}
		if b.stepArgs == nil {
			b.stepArgs, b.stepLits = map[*Node][]stepArg{}, map[*ast.FuncLit]effect.StepMode{}
		}
		b.stepArgs[n] = append(b.stepArgs[n], stepArg{arg, call.Pos(), mode})
		if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
			if v, ok := b.in.Info.Uses[id].(*types.Var); ok {
				for _, d := range b.in.Judge.Defs.Defs(v) {
					if lit, ok := ast.Unparen(d).(*ast.FuncLit); ok {
						b.stepLits[lit] = max(b.stepLits[lit], mode)
					}
				}
			}
		}
	}
}

// stepArg is a function argument of a step call, and how the step records it.
type stepArg struct {
	arg  ast.Expr
	call token.Pos // the step call, where a function value it calls is routed (routeArgs)
	mode effect.StepMode
}

// markSteps marks the sites that enter through a step call's function arguments (stepCall):
// those written inside an argument (the literal, the function value), the values routed
// through the step function when its body is in view (it calls its parameter: routeArgs),
// and the literals a local variable handed there holds, where they are written.
func (b *builder) markSteps() {
	for _, n := range b.Nodes {
		args := b.stepArgs[n]
		for i := range n.Sites {
			s := &n.Sites[i]
			if s.inline && s.local != nil && s.local.Lit != nil && b.stepLits[s.local.Lit] != effect.NoStep {
				s.step = b.stepLits[s.local.Lit]
				continue
			}
			for _, a := range args {
				if (a.arg.Pos() <= s.Pos && s.Pos < a.arg.End()) || (s.value != "" && s.Pos == a.call) {
					s.step = max(s.step, a.mode)
				}
			}
		}
	}
}

// markRegional marks the sites of n inside its receive regions, whose span the handlers
// decide (Input.ReceiveSpan): their effects are the regions' handlers', not n's. It runs
// at Build, not when the handlers make the regions after Solve, because n's own effects,
// which its callers and its fact carry, are solved without those sites.
func (b *builder) markRegional(n *Node) {
	for _, r := range n.Receives {
		from, to := b.in.ReceiveSpan(n, r)
		for i := range n.Sites {
			if p := n.Sites[i].Pos; p >= from && p < to {
				n.Sites[i].regional = true
			}
		}
	}
}

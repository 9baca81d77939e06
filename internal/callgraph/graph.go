// Package callgraph builds one package's call graph for effects and solves it: a node per
// function declaration and function literal, a site per way effects enter a node (a sink
// call judged by package sinks, a call of a function of this package, a call of a function
// of another package with a fact, a closure), and a fixpoint that propagates effects from
// callees to callers. It knows no handlers and no checks.
//
// A call whose targets may lie outside the package's view (any interface call: an
// implementation may be wired in main, in a package this one does not import; a call of a
// function value) is recorded as an open call. A driver that sees the whole program links
// them (Links) and analyses again: the seam between one package and the program.
package callgraph

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks"
)

// Input is what Build needs of a pass.
type Input struct {
	Pkg   *types.Package
	Info  *types.Info
	Fset  *token.FileSet
	Files []*ast.File
	// Directives returns the parsed directives of a file (nil: none).
	Directives func(*ast.File) *directive.File
	Judge      *sinks.Judge
	Facts      Facts
	// Visit, when set, is told the name of each function as it is resolved or evaluated,
	// so that a panic can name it.
	Visit func(name string)
	// Links are the implementations a program-wide link found for the package's open
	// interface calls, by call position (nil: none, as in a per-package driver).
	Links Links
}

// Links maps an open interface call, by its position, to the implementations of other
// packages it may run.
type Links map[token.Pos][]Linked

// Linked is one implementation an open call may run, with its effects as its own package
// computed them.
type Linked struct {
	Name string // hop name: "(*pg.Orders).Create"
	Fact *effect.Fact
}

// Facts are the pass's fact imports (analysis.Pass's fields of the same names).
type Facts struct {
	ImportObjectFact func(types.Object, analysis.Fact) bool
	AllObjectFacts   func() []analysis.ObjectFact
}

// Graph is one package's functions and the sites between them.
type Graph struct {
	in     Input
	Nodes  []*Node
	ByFunc map[*types.Func]*Node
	ByLit  map[*ast.FuncLit]*Node
	// Referenced holds functions used as values (not called) in the package: handed to a
	// framework, stored, or passed as a callback.
	Referenced map[*types.Func]bool
	// Open lists the calls whose targets may lie outside the package, in source order.
	Open []OpenCall

	importFacts map[*types.Func]*effect.Fact
	// unresolved indexes the open interface calls resolved to nothing by caller, built on
	// the first Unresolved call (after Build: Open no longer grows).
	unresolved map[*Node][]OpenCall
	claims     map[*Node]*effect.Claim // ClaimOf's answers for the package's functions
	generated  map[*types.Package]bool
	methods    methodIndex
	// slots are the function values stored in each field and package variable, indexed on
	// the first call of one (slotStores); slotCache their resolved values.
	slots     map[slotKey][]ast.Expr
	slotCache map[slotKey][]funcValue
	// used are the directives that silenced a finding (use), in first-use order.
	used    []*directive.Directive
	usedSet map[*directive.Directive]bool
	// helpers caches returnsReceive: the framework of the receive each function of the
	// package returns the result of ("" for none).
	helpers map[*Node]string
}

// Node is a function declaration or function literal of the package.
type Node struct {
	Fn     *types.Func // nil for literals
	Decl   *ast.FuncDecl
	Lit    *ast.FuncLit
	Name   string // for messages
	Body   *ast.BlockStmt
	Parent *Node // the enclosing function of a literal: its parameters are in scope
	File   *directive.File
	Sig    *types.Signature // nil when not type-checked

	Sites []Site
	// Calls marks the function-typed parameters the function only calls (Fact.Calls),
	// solved before the sites are resolved: the arguments there enter through the call.
	Calls uint64

	// Directives in the declaration's doc comment.
	Barrier   *directive.Directive   // //idemlint:idempotent
	Ignores   []*directive.Directive // //idemlint:ignore
	Marked    *directive.Directive   // //idemlint:handler
	Decisions *directive.Directive   // //idemlint:decisions
	// completesHere is set when the body calls a transactional completion; TxCompletion
	// when it or a callee does (solved with the effects).
	completesHere bool
	TxCompletion  bool
	// HandlerCall is the framework of a modelled handler call in the body (a webhook
	// signature check), which makes the node a handler.
	HandlerCall string
	// ChecksVia are the calls of functions of other packages that check a webhook (their
	// fact's Checks): an HTTP handler that makes one, or reaches a node that does, is the
	// delivery's handler in their place.
	ChecksVia []Checked
	// Receives are the modelled receive calls in the body (sub.Fetch, reader.FetchMessage):
	// the code after each handles what it received, a handler of its own (Region).
	Receives []Receive

	Effects effect.Set // after the function's own directives: what callers see
	From    map[effect.Kind]Origin
	scope   sinks.Scope
	// region, on a node made by Region, is the function it is part of and the span it
	// covers, [from, to): that function's open calls in the span are the region's.
	region   *Node
	from, to token.Pos
}

// Checked is a function of another package that checks a webhook, and the webhook's
// framework.
type Checked struct {
	Fn        *types.Func
	Framework string
}

// Origin says where, in a node's body, the effect of one kind it keeps comes from.
type Origin struct {
	Pos token.Pos // the call (or closure) in the body
	Via *Node     // the callee, when it is in this package
}

// Site is one way effects enter a node: a call to a sink, to a function of this package,
// to a function of another package (its fact), or a closure defined in the body.
type Site struct {
	Pos    token.Pos
	line   int
	callee string // hop name
	sink   *effect.Effect
	local  *Node
	fact   *effect.Fact
	inline bool          // a closure: its effects are the node's own, with no hop
	gates  []*sinks.Gate // the claims checked before the site (or its error), which guard it
	// args are the call's arguments in parameter order (a method expression's receiver
	// dropped); nil for a function value, whose arguments are not in view.
	args []ast.Expr
	// value, on a site routed through a callee that calls its parameter, names the
	// function value passed there, whose effects (local or fact) the site carries.
	value string
	// guard, on a fact site, is the kind a generated chain guard in the call's receiver
	// chain protects (ent's OnConflict before Exec), and guardBy its method name.
	guard   effect.Kind
	guardBy string
	// regional marks a site inside one of the node's receive regions (ReceiveSpan): its
	// effects are that region's handler's, per message received, and not the node's own,
	// which its callers see (who starts a consumer loop does not handle its messages).
	regional bool
}

// OpenKind says why a call is open.
type OpenKind uint8

const (
	// OpenInterface: an interface method: implementations may be anywhere in the program.
	OpenInterface OpenKind = iota
	// OpenFuncValue: a call of a function value (a parameter, a field, a variable).
	OpenFuncValue
)

// OpenCall is a call whose targets may lie outside the package.
type OpenCall struct {
	Caller *Node
	Pos    token.Pos
	Kind   OpenKind
	// Method is the interface method called (OpenInterface), and Recv the interface of
	// the receiver expression's static type, whose method set an implementation must have.
	Method *types.Func
	Recv   *types.Interface
	// InView is set when the package's analysis resolved the interface call to something:
	// an implementation of this package, one with effects among its dependencies, a
	// modelled sink, or what a program-wide link found.
	InView bool
}

// Build creates a node per function and literal, then resolves every call site once; Solve
// only propagates along the resolved sites.
func Build(in Input) *Graph {
	g := &Graph{
		in:          in,
		ByFunc:      map[*types.Func]*Node{},
		ByLit:       map[*ast.FuncLit]*Node{},
		Referenced:  map[*types.Func]bool{},
		importFacts: map[*types.Func]*effect.Fact{},
	}
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
			g.add(n)
			g.ByFunc[fn] = n
			g.collectLits(n, fd.Body, df)
		}
	}
	for _, n := range g.Nodes {
		n.scope = g.newScope(n)
	}
	g.solveCalls()
	for _, n := range g.Nodes {
		g.resolve(n)
	}
	for _, n := range g.Nodes {
		markRegional(n)
	}
	return g
}

func (n *Node) readDirectives(ds []*directive.Directive) {
	for _, d := range ds {
		if d.Err != "" {
			continue
		}
		switch d.Verb {
		case directive.Idempotent:
			n.Barrier = d
		case directive.Ignore:
			n.Ignores = append(n.Ignores, d)
		case directive.Handler:
			n.Marked = d
		case directive.DecisionsVerb:
			n.Decisions = d
		}
	}
}

func (g *Graph) add(n *Node) {
	n.From = map[effect.Kind]Origin{}
	g.Nodes = append(g.Nodes, n)
}

// collectLits makes a node for each function literal directly or indirectly inside body.
func (g *Graph) collectLits(outer *Node, body ast.Node, df *directive.File) {
	ast.Inspect(body, func(x ast.Node) bool {
		lit, ok := x.(*ast.FuncLit)
		if !ok || x == body {
			return true
		}
		if _, seen := g.ByLit[lit]; seen {
			return false
		}
		sig, _ := g.in.Info.TypeOf(lit).(*types.Signature)
		n := &Node{Lit: lit, Name: "func literal in " + outer.Name, Body: lit.Body, File: df, Parent: outer, Sig: sig}
		g.add(n)
		g.ByLit[lit] = n
		g.collectLits(n, lit.Body, df)
		return false
	})
}

// newScope is the scope sink calls in n are judged in: its name, its declared function, and
// the parameters of n and of the functions enclosing it.
func (g *Graph) newScope(n *Node) sinks.Scope {
	sc := sinks.Scope{Name: n.Name, Func: n.Fn, Params: map[*types.Var]bool{}}
	for m := n; m != nil; m = m.Parent {
		if m.Sig == nil {
			continue
		}
		for i := 0; i < m.Sig.Params().Len(); i++ {
			sc.Params[m.Sig.Params().At(i)] = true
		}
	}
	for m := n; m != nil; m = m.Parent {
		g.receivedVars(m.Body, sc.Params)
	}
	return sc
}

// receivedVars adds to params the variables a modelled receive call in body is assigned to
// (msgs, err := sub.Fetch(10)), and those of a range over one of them (for _, m := range
// msgs): in a receive loop the message comes from there, not from a parameter, and a key
// made from it identifies the message.
func (g *Graph) receivedVars(body *ast.BlockStmt, params map[*types.Var]bool) {
	if body == nil {
		return
	}
	received := map[*types.Var]bool{}
	add := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok {
			if v, ok := g.in.Info.ObjectOf(id).(*types.Var); ok {
				params[v], received[v] = true, true
			}
		}
	}
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.AssignStmt:
			if len(x.Rhs) == 1 && (g.receives(x.Rhs[0]) || g.deliveryRecv(x.Rhs[0])) {
				for _, l := range x.Lhs {
					add(l)
				}
			}
		case *ast.RangeStmt:
			if g.mentions(x.X, received) || g.Models().DeliveryChan(g.in.Info.TypeOf(x.X)) != nil {
				add(x.Key)
				add(x.Value)
			}
		}
		return true
	})
}

// receives reports whether e is a call of a modelled receive call.
func (g *Graph) receives(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(g.in.Info, call).(*types.Func)
	return ok && g.in.Judge.Models.Of(fn.Origin()).Receive != ""
}

// mentions reports whether e uses one of vars.
func (g *Graph) mentions(e ast.Expr, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(e, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if v, ok := g.in.Info.Uses[id].(*types.Var); ok && vars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// Pos is where n is declared: its name, or the literal.
func (n *Node) Pos() token.Pos {
	switch {
	case n.Decl != nil:
		return n.Decl.Name.Pos()
	case n.Lit != nil:
		return n.Lit.Pos()
	}
	return n.Body.Lbrace
}

// HopName is the name of n on a chain: qualified by its package, as importers see it.
func (n *Node) HopName() string {
	if n.Fn != nil {
		return effect.FuncName(n.Fn, nil)
	}
	return n.Name
}

func (g *Graph) line(pos token.Pos) int { return g.in.Fset.Position(pos).Line }

func (g *Graph) visit(n *Node) {
	if g.in.Visit != nil {
		g.in.Visit(n.Name)
	}
}

// resolve finds the sites of n: calls, function values and closures in its body (but not
// in the bodies of nested literals, which are nodes of their own and enter as closures).
func (g *Graph) resolve(n *Node) {
	g.visit(n)
	info := g.in.Info
	var visit func(x ast.Node) bool
	visit = func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			if inner := g.ByLit[x]; inner != nil && inner != n {
				n.Sites = append(n.Sites, Site{Pos: x.Pos(), line: g.line(x.Pos()), local: inner, inline: true})
				return false
			}
		case *ast.CallExpr:
			routed := g.resolveCall(n, x)
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
				if !routed[arg] {
					ast.Inspect(arg, visit)
				} else if sel, ok := unconvert(info, arg).(*ast.SelectorExpr); ok {
					ast.Inspect(sel.X, visit) // the receiver of a routed method value is evaluated here
				}
			}
			return false
		case *ast.Ident:
			if fn, ok := info.Uses[x].(*types.Func); ok {
				g.valueRef(n, fn, x.Pos())
			}
		case *ast.SelectorExpr:
			if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
				g.valueRef(n, fn, x.Sel.Pos())
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
		g.attachGates(n)
	}
}

// attachGates attaches to each site of n the gates covering it: those with a stable key,
// else one without (which says why it guards nothing).
func (g *Graph) attachGates(n *Node) {
	gates := g.in.Judge.Gates(n.Body, n.scope, g.ClaimOf)
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

// ClaimOf says what fn's result reports of a claim its body makes: for a function of the
// package, read from its body once; for another package's, from its fact.
func (g *Graph) ClaimOf(fn *types.Func) *effect.Claim {
	n := g.ByFunc[fn]
	if n == nil {
		if fn.Pkg() == nil || fn.Pkg() == g.in.Pkg {
			return nil
		}
		if f := g.Fact(fn); f != nil {
			return f.Claim
		}
		return nil
	}
	if c, ok := g.claims[n]; ok {
		return c
	}
	if g.claims == nil {
		g.claims = map[*Node]*effect.Claim{}
	}
	g.claims[n] = nil // a recursive helper reads no claim of itself
	c := g.in.Judge.ReturnedClaim(n.Body, n.Sig, g.ClaimOf)
	g.claims[n] = c
	return c
}

// valueRef handles a function used as a value: a method value, a callback, a handler handed
// to a framework. It may be called from here, so its effects count as n's.
func (g *Graph) valueRef(n *Node, fn *types.Func, pos token.Pos) {
	fn = fn.Origin()
	g.Referenced[fn] = true
	g.callTarget(n, fn, pos, nil)
}

// resolveCall adds the sites of one call; it returns the arguments whose function values
// were routed through the callee (routeArgs).
func (g *Graph) resolveCall(n *Node, call *ast.CallExpr) map[ast.Expr]bool {
	callee := typeutil.Callee(g.in.Info, call)
	fn, ok := callee.(*types.Func)
	if !ok {
		_, isVar := callee.(*types.Var)
		if isVar {
			// f(x) with f a parameter, field or variable: what it holds may not all be in
			// view (a parameter's never is); what the package stores there is followed.
			g.Open = append(g.Open, OpenCall{Caller: n, Pos: call.Pos(), Kind: OpenFuncValue})
		}
		if _, isIndex := ast.Unparen(call.Fun).(*ast.IndexExpr); isVar || (callee == nil && isIndex) {
			g.valueCall(n, call)
		}
		return nil
	}
	fn = fn.Origin()
	entry := g.in.Judge.Models.Of(fn)
	if entry.Read {
		return nil // the models say it only reads, whatever its body or facts hold (reads)
	}
	if entry.HandlerCall != "" && n.HandlerCall == "" {
		n.HandlerCall = entry.HandlerCall
	}
	if fw := g.receiveOf(n, fn, call); fw != "" {
		n.Receives = append(n.Receives, Receive{Call: call, Framework: fw})
	}
	if entry.TxCompletion {
		n.completesHere = true
	}
	if s := entry.Sink; s != nil {
		if e := g.in.Judge.Eval(call, s, fn, n.scope); e != nil {
			n.Sites = append(n.Sites, Site{Pos: call.Pos(), line: g.line(call.Pos()), sink: e})
		}
		return nil
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		if !entry.Opaque {
			g.dispatch(n, fn, call)
		}
		return nil
	}
	before := len(n.Sites)
	args := callArgs(g.in.Info, call)
	g.callTarget(n, fn, call.Pos(), args)
	if len(n.Sites) > before && n.Sites[before].fact != nil && g.generatedPkg(fn.Pkg()) {
		n.Sites[before].guard, n.Sites[before].guardBy = g.in.Judge.GeneratedGuard(call)
	}
	return g.routeArgs(n, fn, call, args)
}

// callArgs returns a call's arguments in the callee's parameter order: a method expression
// (T.M(recv, x)) passes its receiver first.
func callArgs(info *types.Info, call *ast.CallExpr) []ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodExpr && len(call.Args) > 0 {
			return call.Args[1:]
		}
	}
	if call.Args == nil {
		return []ast.Expr{} // called with no arguments: still a call
	}
	return call.Args
}

// callTarget adds a site for a call of (or reference to) fn at pos; args are the call's
// arguments, nil for a reference.
func (g *Graph) callTarget(n *Node, fn *types.Func, pos token.Pos, args []ast.Expr) {
	if local := g.ByFunc[fn]; local != nil {
		n.Sites = append(n.Sites, Site{Pos: pos, line: g.line(pos), callee: local.HopName(), local: local, args: args})
		return
	}
	if fn.Pkg() == nil || fn.Pkg() == g.in.Pkg {
		return
	}
	if f := g.Fact(fn); f != nil {
		n.Sites = append(n.Sites, Site{Pos: pos, line: g.line(pos), callee: effect.FuncName(fn, nil), fact: f, args: args})
		if f.Checks != "" && args != nil {
			// A call, not a reference (mux.HandleFunc(path, svc.Handle) registers it).
			n.ChecksVia = append(n.ChecksVia, Checked{fn, f.Checks})
		}
	}
}

// Fact returns the effects fact of a function of another package, or nil.
func (g *Graph) Fact(fn *types.Func) *effect.Fact {
	if f, ok := g.importFacts[fn]; ok {
		return f
	}
	f := new(effect.Fact)
	if !g.in.Facts.ImportObjectFact(fn, f) {
		f = nil
	}
	g.importFacts[fn] = f
	return f
}

// generatedPkg reports, once per package, whether calls into pkg may carry a generated
// chain guard: every call with a fact asks.
func (g *Graph) generatedPkg(pkg *types.Package) bool {
	gen, ok := g.generated[pkg]
	if !ok {
		if g.generated == nil {
			g.generated = map[*types.Package]bool{}
		}
		gen = g.in.Judge.Models.Index.Generated(pkg)
		g.generated[pkg] = gen
	}
	return gen
}

// Models returns the model lookups the graph was built with.
func (g *Graph) Models() *model.Entries { return g.in.Judge.Models }

// Receive is a modelled receive call in a node's body and the framework of its model.
type Receive struct {
	Call      *ast.CallExpr
	Framework string
}

// Region returns a node for a part of n's body, the sites between from and to, evaluated
// from the solved effects of what they call: the code of a receive loop that handles each
// message in place. It is named name and declared at body (a loop's, or a synthetic block
// that starts at the receive), is not in Nodes and exports no fact; n's directives apply.
// Call it after Solve.
func (g *Graph) Region(n *Node, name string, body *ast.BlockStmt, from, to token.Pos) *Node {
	r := &Node{Name: name, Body: body, Parent: n.Parent, File: n.File, scope: n.scope,
		Barrier: n.Barrier, Ignores: n.Ignores, Decisions: n.Decisions, region: n, from: from, to: to}
	for _, s := range n.Sites {
		if s.Pos >= from && s.Pos < to {
			r.Sites = append(r.Sites, s)
		}
	}
	g.evaluate(r, true)
	return r
}

// inTestFile reports whether pos is in a _test.go file.
func (g *Graph) inTestFile(pos token.Pos) bool {
	f := g.in.Fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// comparePos orders two positions of the package (ComparePos).
func (g *Graph) comparePos(a, b token.Pos) int { return ComparePos(g.in.Fset, a, b) }

// ComparePos orders two positions by file name, then offset: the order of token.Pos values
// across files is the order the loader happened to parse them in, which concurrent parsing
// does not fix, and output sorted by it would change from run to run.
func ComparePos(fset *token.FileSet, a, b token.Pos) int {
	fa, fb := fset.File(a), fset.File(b)
	if fa == nil || fb == nil || fa == fb {
		return cmp.Compare(a, b)
	}
	return cmp.Or(cmp.Compare(fa.Name(), fb.Name()), cmp.Compare(fa.Offset(a), fb.Offset(b)))
}

// Innermost returns the node whose body most closely encloses pos, or nil.
func (g *Graph) Innermost(pos token.Pos) *Node {
	var best *Node
	for _, n := range g.Nodes {
		if n.Body != nil && n.Body.Pos() <= pos && pos < n.Body.End() &&
			(best == nil || n.Body.Pos() >= best.Body.Pos()) {
			best = n
		}
	}
	return best
}

// Callees returns the nodes of this package n calls or defines (its closures), in source
// order: the edges a caller-side search (who reaches a webhook check) walks backwards.
func (n *Node) Callees() []*Node {
	var out []*Node
	for _, s := range n.Sites {
		if s.local != nil {
			out = append(out, s.local)
		}
	}
	return out
}

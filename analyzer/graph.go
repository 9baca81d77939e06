package analyzer

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// analysis_ is the state of one pass: the package's functions as nodes of a call graph,
// the local-variable definitions the sink rules read, and the directives.
type analysis_ struct {
	pass       *analysis.Pass
	index      *model.Index
	disabled   map[effect.Kind]bool // kinds not to report
	required   map[string]bool      // checklist decisions to report as missing
	directives map[*token.File]*directive.File

	nodes  []*node
	byFunc map[*types.Func]*node
	byLit  map[*ast.FuncLit]*node

	// defs maps a local variable to the expressions assigned to it; callsOn maps it to the
	// calls made on it (v.M(...), v.F.M(...)). Both feed the sink rules: where a request was
	// built, which header was set, which statements were queued.
	defs    map[*types.Var][]ast.Expr
	callsOn map[*types.Var][]*ast.CallExpr
	// fieldSets maps a local variable to assignments of its fields (v.F = x, v.H["k"] = x).
	fieldSets map[*types.Var][]*ast.AssignStmt
	// fills maps a local variable to the calls given its address, which fill it in:
	// json.Unmarshal(t.Payload(), &p) makes p from the task.
	fills map[*types.Var][]*ast.CallExpr

	// referenced holds functions used as values (not called) in the package: handed to a
	// framework, stored, or passed as a callback.
	referenced map[*types.Func]bool

	entries  map[*types.Func]*model.Entry // model lookups, by callee
	imported model.Packages               // the import graph by path, built on first use
	// methodByName caches lookupMethod: model full name -> method in view (nil: none).
	methodByName map[string]*types.Func
	methodIndex  map[string][]*types.Func // imported methods with facts, by name
	// current is the node whose calls are being resolved (sink rules read its parameters).
	current *node
	// methodsByName indexes the package's own methods, built on first use.
	methodsByName map[string][]*node
	importFacts   map[*types.Func]*effect.Fact
	// retrySet holds the retry settings of the package (and, read on first use, of its
	// dependencies) for the ttl checks.
	retrySet retrySettings
	// muxUses indexes the variables in asynq registrations' handler arguments, on first use.
	muxUses map[*types.Var]*muxUse
	// generated caches, per callee package, whether it is generated code a model describes.
	generated map[*types.Package]bool
}

// node is a function declaration or function literal of the package.
type node struct {
	fn     *types.Func // nil for literals
	decl   *ast.FuncDecl
	lit    *ast.FuncLit
	name   string // for messages
	body   *ast.BlockStmt
	parent *node // the enclosing function of a literal: its parameters are in scope
	file   *directive.File

	sites []site
	// gates are the claims checked in the body (a Redis SETNX with an early return).
	gates []*gate
	// claims is set when the body calls a gate: only then is it searched for gate checks.
	claims bool

	// Directives in the declaration's doc comment.
	barrier *directive.Directive   // //idemlint:idempotent
	ignores []*directive.Directive // //idemlint:ignore
	marked  *directive.Directive   // //idemlint:handler
	// decisions is the handler's //idemlint:decisions declaration.
	decisions *directive.Directive
	// completesHere is set when the body calls a transactional completion; txCompletion
	// when it or a callee does (solved with the effects).
	completesHere bool
	txCompletion  bool
	// handlerCall is the framework of a modelled handler call in the body (a webhook
	// signature check), which makes the node a handler.
	handlerCall string

	raw     effect.Set // before the function's own directives
	effects effect.Set // after them: what callers see
	from    map[effect.Kind]origin
}

// origin says where, in a node's body, the effect of one kind it keeps comes from.
type origin struct {
	pos token.Pos // the call (or closure) in the body
	via *node     // the callee, when it is in this package
}

// site is one way effects enter a node: a call to a sink, to a function of this package,
// to a function of another package (its fact), or a closure defined in the body.
type site struct {
	pos    token.Pos
	line   int
	callee string // hop name
	sink   *effect.Effect
	local  *node
	fact   *effect.Fact
	inline bool  // a closure: its effects are the node's own, with no hop
	gate   *gate // the claim checked before the site, whose early return guards it
	// args are the call's arguments in parameter order (a method expression's receiver
	// dropped); nil for a function value, whose arguments are not in view.
	args []ast.Expr
	// guard, on a fact site, is the kind a generated chain guard in the call's receiver
	// chain protects (ent's OnConflict before Exec), and guardBy its method name.
	guard   effect.Kind
	guardBy string
}

func newAnalysis(pass *analysis.Pass, ix *model.Index) *analysis_ {
	return &analysis_{
		pass:        pass,
		index:       ix,
		directives:  map[*token.File]*directive.File{},
		byFunc:      map[*types.Func]*node{},
		byLit:       map[*ast.FuncLit]*node{},
		defs:        map[*types.Var][]ast.Expr{},
		callsOn:     map[*types.Var][]*ast.CallExpr{},
		fieldSets:   map[*types.Var][]*ast.AssignStmt{},
		fills:       map[*types.Var][]*ast.CallExpr{},
		referenced:  map[*types.Func]bool{},
		entries:     map[*types.Func]*model.Entry{},
		importFacts: map[*types.Func]*effect.Fact{},
	}
}

// build creates a node per function and literal, records local definitions, then resolves
// every call site once; solve only propagates along the resolved sites.
func (a *analysis_) build() {
	for _, f := range a.pass.Files {
		df := a.fileOf(f)
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, _ := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil {
				continue
			}
			n := &node{fn: fn, decl: fd, name: funcName(fn, a.pass.Pkg), body: fd.Body, file: df}
			for _, d := range df.InDoc(fd.Doc) {
				if d.Err != "" {
					continue
				}
				switch d.Verb {
				case directive.Idempotent:
					n.barrier = d
				case directive.Ignore:
					n.ignores = append(n.ignores, d)
				case directive.Handler:
					n.marked = d
				case directive.DecisionsVerb:
					n.decisions = d
				}
			}
			a.add(n)
			a.byFunc[fn] = n
			a.collectLits(n, fd.Body, df)
		}
	}
	for _, f := range a.pass.Files {
		a.collectDefs(f)
	}
	for _, n := range a.nodes {
		a.resolve(n)
	}
}

func (a *analysis_) add(n *node) {
	n.from = map[effect.Kind]origin{}
	a.nodes = append(a.nodes, n)
}

// collectLits makes a node for each function literal directly or indirectly inside body.
func (a *analysis_) collectLits(outer *node, body ast.Node, df *directive.File) {
	ast.Inspect(body, func(x ast.Node) bool {
		lit, ok := x.(*ast.FuncLit)
		if !ok || x == body {
			return true
		}
		if _, seen := a.byLit[lit]; seen {
			return false
		}
		n := &node{lit: lit, name: "func literal in " + outer.name, body: lit.Body, file: df, parent: outer}
		a.add(n)
		a.byLit[lit] = n
		a.collectLits(n, lit.Body, df)
		return false
	})
}

// collectDefs records, for local variables, what is assigned to them and what is called on
// them. Flow-insensitive on purpose: the rules ask "was the header set on this request",
// not "on every path".
func (a *analysis_) collectDefs(f *ast.File) {
	info := a.pass.TypesInfo
	local := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, _ := info.ObjectOf(id).(*types.Var)
		if v == nil || v.IsField() || v.Parent() == a.pass.Pkg.Scope() || v.Parent() == nil {
			return nil
		}
		return v
	}
	ast.Inspect(f, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.AssignStmt:
			switch {
			case len(x.Lhs) == len(x.Rhs):
				for i, l := range x.Lhs {
					if v := local(l); v != nil {
						if x.Tok == token.ASSIGN || x.Tok == token.DEFINE {
							a.defs[v] = append(a.defs[v], x.Rhs[i])
						} else {
							a.defs[v] = append(a.defs[v], nil) // x op= y: no single value
						}
					} else if v := rootVar(info, l); v != nil {
						a.fieldSets[v] = append(a.fieldSets[v], x)
					}
				}
			case len(x.Rhs) == 1:
				// v, err := f(): the call defines the first variable.
				if v := local(x.Lhs[0]); v != nil {
					a.defs[v] = append(a.defs[v], x.Rhs[0])
				}
				for _, l := range x.Lhs[1:] {
					if v := local(l); v != nil {
						a.defs[v] = append(a.defs[v], nil)
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range x.Names {
				v, _ := info.Defs[name].(*types.Var)
				if v == nil {
					continue
				}
				switch {
				case len(x.Values) == len(x.Names):
					a.defs[v] = append(a.defs[v], x.Values[i])
				case len(x.Values) == 1 && i == 0:
					a.defs[v] = append(a.defs[v], x.Values[0])
				}
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				if v := rootVar(info, sel.X); v != nil {
					a.callsOn[v] = append(a.callsOn[v], x)
				}
			}
			for _, arg := range x.Args {
				if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
					if v := local(u.X); v != nil {
						a.fills[v] = append(a.fills[v], x)
					}
				}
			}
		}
		return true
	})
}

// rootVar returns the local variable at the root of a selector or index chain (v in
// v.Header.Set, v.Params.IdempotencyKey, v.Header["k"]), or nil.
func rootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			e = x.X
		case *ast.Ident:
			v, _ := info.ObjectOf(x).(*types.Var)
			if v == nil || v.IsField() {
				return nil
			}
			return v
		default:
			return nil
		}
	}
}

// def returns the single expression assigned to v, or nil when there is none or several.
func (a *analysis_) def(v *types.Var) ast.Expr {
	if ds := a.defs[v]; len(ds) == 1 {
		return ds[0]
	}
	return nil
}

// resolve finds the sites of n: calls, function values and closures in its body (but not
// in the bodies of nested literals, which are nodes of their own and enter as closures).
func (a *analysis_) resolve(n *node) {
	a.current = n
	info := a.pass.TypesInfo
	var visit func(x ast.Node) bool
	visit = func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			if inner := a.byLit[x]; inner != nil && inner != n {
				n.sites = append(n.sites, site{pos: x.Pos(), line: a.line(x.Pos()), local: inner, inline: true})
				return false
			}
		case *ast.CallExpr:
			a.resolveCall(n, x)
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
				a.valueRef(n, fn, x.Pos())
			}
		case *ast.SelectorExpr:
			if fn, ok := info.Uses[x.Sel].(*types.Func); ok {
				a.valueRef(n, fn, x.Sel.Pos())
				ast.Inspect(x.X, visit)
				return false
			}
		}
		return true
	}
	ast.Inspect(n.body, func(x ast.Node) bool {
		if x == n.body {
			return true
		}
		return visit(x)
	})
	if n.claims {
		a.findGates(n)
	}
}

// valueRef handles a function used as a value: a method value, a callback, a handler handed
// to a framework. It may be called from here, so its effects count as n's.
func (a *analysis_) valueRef(n *node, fn *types.Func, pos token.Pos) {
	fn = fn.Origin()
	a.referenced[fn] = true
	a.callTarget(n, fn, pos, nil)
}

func (a *analysis_) line(pos token.Pos) int { return a.pass.Fset.Position(pos).Line }

func (a *analysis_) resolveCall(n *node, call *ast.CallExpr) {
	fn, ok := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
	if !ok {
		return
	}
	fn = fn.Origin()
	entry := a.entry(fn)
	if entry.Gate != nil {
		n.claims = true
	}
	if entry.HandlerCall != "" && n.handlerCall == "" {
		n.handlerCall = entry.HandlerCall
	}
	if entry.TxCompletion {
		n.completesHere = true
	}
	if s := entry.Sink; s != nil {
		if e := a.evalSink(n, s, fn, call); e != nil {
			n.sites = append(n.sites, site{pos: call.Pos(), line: a.line(call.Pos()), sink: e})
		}
		return
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		if !entry.Opaque {
			a.dispatch(n, fn, call)
		}
		return
	}
	before := len(n.sites)
	a.callTarget(n, fn, call.Pos(), a.callArgs(call))
	if len(n.sites) > before && n.sites[before].fact != nil && a.generatedPkg(fn.Pkg()) {
		n.sites[before].guard, n.sites[before].guardBy = a.generatedGuard(call)
	}
}

// generatedGuard finds a generated chain guard (ent's OnConflict) in the receiver chain of a
// call into generated code, followed through local variables, or called on the builder
// variable the chain starts from (b.OnConflict(...); b.Exec(ctx): the guard sets the
// builder's conflict options). It returns the kind the guard protects and its name.
func (a *analysis_) generatedGuard(call *ast.CallExpr) (effect.Kind, string) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	var kind effect.Kind
	var name string
	match := func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(a.pass.TypesInfo, c).(*types.Func)
		if !ok || a.entry(fn).GuardKind == "" {
			return false
		}
		kind, name = a.entry(fn).GuardKind, fn.Name()
		return true
	}
	if a.findInExpr(sel.X, match) {
		return kind, name
	}
	if v := rootVar(a.pass.TypesInfo, sel.X); v != nil {
		for _, c := range a.callsOn[v] {
			if match(c) {
				return kind, name
			}
		}
	}
	return "", ""
}

// callArgs returns a call's arguments in the callee's parameter order: a method expression
// (T.M(recv, x)) passes its receiver first.
func (a *analysis_) callArgs(call *ast.CallExpr) []ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := a.pass.TypesInfo.Selections[sel]; ok && s.Kind() == types.MethodExpr && len(call.Args) > 0 {
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
func (a *analysis_) callTarget(n *node, fn *types.Func, pos token.Pos, args []ast.Expr) {
	if local := a.byFunc[fn]; local != nil {
		n.sites = append(n.sites, site{pos: pos, line: a.line(pos), callee: local.hopName(), local: local, args: args})
		return
	}
	if fn.Pkg() == nil || fn.Pkg() == a.pass.Pkg {
		return
	}
	if f := a.fact(fn); f != nil {
		n.sites = append(n.sites, site{pos: pos, line: a.line(pos), callee: funcName(fn, nil), fact: f, args: args})
	}
}

func (a *analysis_) fact(fn *types.Func) *effect.Fact {
	if f, ok := a.importFacts[fn]; ok {
		return f
	}
	f := new(effect.Fact)
	if !a.pass.ImportObjectFact(fn, f) {
		f = nil
	}
	a.importFacts[fn] = f
	return f
}

// entry returns what the models say about fn, looked up once per function and pass.
func (a *analysis_) entry(fn *types.Func) *model.Entry {
	e, ok := a.entries[fn]
	if !ok {
		e = a.index.Lookup(fn)
		a.entries[fn] = e
	}
	return e
}

// dispatch resolves a call of an interface method to the implementations visible to the
// package: methods of this package and methods with facts from its dependencies whose
// receiver implements the interface, and modelled sinks (a *pgxpool.Pool behind a
// repository's own DBTX interface).
func (a *analysis_) dispatch(n *node, m *types.Func, call *ast.CallExpr) {
	iface, _ := m.Signature().Recv().Type().Underlying().(*types.Interface)
	if iface == nil {
		return
	}
	implements := func(fn *types.Func) bool {
		recv := fn.Signature().Recv()
		if recv == nil || types.IsInterface(recv.Type()) {
			return false
		}
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if named, ok := t.(*types.Named); ok && named.TypeParams().Len() > 0 {
			return false // a generic receiver cannot be checked without instantiation
		}
		return types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface)
	}
	seen := false
	for _, cand := range a.localMethods(m.Name()) {
		if implements(cand.fn) {
			a.callTarget(n, cand.fn, call.Pos(), a.callArgs(call))
			seen = true
		}
	}
	for _, fn := range a.importedMethods()[m.Name()] {
		if implements(fn) {
			a.callTarget(n, fn, call.Pos(), a.callArgs(call))
			seen = true
		}
	}
	if seen {
		return
	}
	// No implementation with effects in view: a modelled sink method behind the interface?
	for _, s := range a.index.MethodSinks(m.Name()) {
		impl := a.lookupMethod(s.Func)
		if impl != nil && implements(impl) {
			// The chain names the interface method called: which implementation runs is
			// decided at run time.
			if e := a.evalSink(n, s, m, call); e != nil {
				n.sites = append(n.sites, site{pos: call.Pos(), line: a.line(call.Pos()), sink: e})
			}
			return
		}
	}
}

// localMethods returns the package's methods named name, indexed on first use: interface
// calls are frequent and nodes many.
func (a *analysis_) localMethods(name string) []*node {
	if a.methodsByName == nil {
		a.methodsByName = map[string][]*node{}
		for _, n := range a.nodes {
			if n.fn != nil && n.fn.Signature().Recv() != nil {
				a.methodsByName[n.fn.Name()] = append(a.methodsByName[n.fn.Name()], n)
			}
		}
	}
	return a.methodsByName[name]
}

// importedMethods indexes, once per pass, the methods of dependencies that carry facts.
func (a *analysis_) importedMethods() map[string][]*types.Func {
	if a.methodIndex != nil {
		return a.methodIndex
	}
	a.methodIndex = map[string][]*types.Func{}
	for _, of := range a.pass.AllObjectFacts() {
		fn, ok := of.Object.(*types.Func)
		if !ok || fn.Signature().Recv() == nil || fn.Pkg() == a.pass.Pkg {
			continue
		}
		a.methodIndex[fn.Name()] = append(a.methodIndex[fn.Name()], fn)
	}
	for _, fns := range a.methodIndex {
		sort.Slice(fns, func(i, j int) bool { return fns[i].FullName() < fns[j].FullName() })
	}
	return a.methodIndex
}

// lookupMethod finds the method a full name like "(*pkg/path.Type).Name" denotes among the
// packages this one imports, directly or not; nil if that package is not in view.
func (a *analysis_) lookupMethod(full string) *types.Func {
	// Every interface call of a method a sink shares a name with (Exec, Query, Send) asks;
	// resolving scans the import graph, so each name is resolved once per pass.
	if m, ok := a.methodByName[full]; ok {
		return m
	}
	if a.imported == nil {
		a.imported = model.Packages{}
		a.imported.Add(a.pass.Pkg)
		a.methodByName = map[string]*types.Func{}
	}
	fn, _ := model.Resolve(a.imported, full)
	m, _ := fn.(*types.Func)
	a.methodByName[full] = m
	return m
}

// generatedPkg reports, once per package, whether calls into pkg may carry a generated
// chain guard: every call with a fact asks.
func (a *analysis_) generatedPkg(pkg *types.Package) bool {
	g, ok := a.generated[pkg]
	if !ok {
		if a.generated == nil {
			a.generated = map[*types.Package]bool{}
		}
		g = a.index.Generated(pkg)
		a.generated[pkg] = g
	}
	return g
}

// signature returns n's signature: the declared function's, or the literal's type.
func (a *analysis_) signature(n *node) *types.Signature {
	if n.fn != nil {
		return n.fn.Signature()
	}
	if n.lit != nil {
		sig, _ := a.pass.TypesInfo.TypeOf(n.lit).(*types.Signature)
		return sig
	}
	return nil
}

// hopName is the name of n on a chain: qualified by its package, as importers see it.
func (n *node) hopName() string {
	if n.fn != nil {
		return funcName(n.fn, nil)
	}
	return n.name
}

// funcName renders fn as "pkg.F" or "(*pkg.T).M"; with from set, names in from are not
// qualified.
func funcName(fn *types.Func, from *types.Package) string {
	qual := func(p *types.Package) string {
		if p == from {
			return ""
		}
		return p.Name()
	}
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		ptr := ""
		if p, ok := t.(*types.Pointer); ok {
			ptr, t = "*", p.Elem()
		}
		name := types.TypeString(t, qual)
		if named, ok := t.(*types.Named); ok {
			// Drop type arguments: (*Worker[T]).Work reads better as (*Worker).Work.
			name = types.TypeString(named.Origin(), qual)
			if i := strings.IndexByte(name, '['); i >= 0 {
				name = name[:i]
			}
		}
		return "(" + ptr + name + ")." + fn.Name()
	}
	if q := qual(fn.Pkg()); q != "" {
		return q + "." + fn.Name()
	}
	return fn.Name()
}

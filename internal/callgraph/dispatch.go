package callgraph

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/model"
)

// dispatcher resolves interface method calls to the implementations in the package's view
// (its own methods, its dependencies' with facts, modelled sinks behind an interface) and
// answers which methods implement an interface, for the receive finder and the handlers
// (Graph.Implementations). Its indexes are its own, built on first use.
type dispatcher struct {
	*core
	methods methodIndex
	// converted holds the named types the package converts to an interface
	// (Conversions), built on first use.
	converted map[*types.Named]bool
}

// convertedHere reports whether the package converts the receiver type of method fn to an
// interface.
func (d *dispatcher) convertedHere(fn *types.Func) bool {
	if d.converted == nil {
		d.converted = map[*types.Named]bool{}
		for _, t := range Conversions(d.in.Info, d.in.Files) {
			d.converted[t] = true
		}
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	named, ok := types.Unalias(defuse.Deref(recv.Type())).(*types.Named)
	return ok && d.converted[named.Origin()]
}

// methodIndex holds the lookups interface dispatch makes, built on first use: interface
// calls are frequent and nodes many.
type methodIndex struct {
	local    map[string][]*Node       // the package's own methods, by name
	imported map[string][]*types.Func // methods of dependencies with facts, by name
	byName   map[string]*types.Func   // model full name -> method in view (nil: none)
	packages model.Packages           // the import graph by path
	// implements caches dispatch's answers; embedders, per package, the struct types that
	// embed each named type.
	implements map[implKey]bool
	embedders  map[*types.Package]map[*types.Named][]*types.Named
	// beside caches implementedBeside's answers, by interface method and interface.
	beside map[implKey]bool
}

// dispatch resolves a call of an interface method to the implementations visible to the
// package: methods of this package and methods with facts from its dependencies whose
// receiver implements the interface, and modelled sinks (a *pgxpool.Pool behind a
// repository's own DBTX interface). A call none of them answers is open.
//
// The interface is the static type of the receiver expression, not the one that declares
// the method: resp.Body.Close() is a call on an io.ReadCloser, which an io.Closer that
// writes to a database does not implement.
func (d *dispatcher) dispatch(n *Node, m *types.Func, call *ast.CallExpr) {
	iface := d.receiverInterface(m, call)
	if iface == nil {
		return
	}
	open := len(d.Open)
	found := d.implementationsAt(n, m, iface, call.Pos(), callArgs(d.in.Info, call), true)
	// A modelled sink method behind the interface: when no implementation with effects is
	// in view, or beside those there are when the package puts the sink's type behind an
	// interface itself (an instrumented wrapper over the *http.Client it is given, both
	// implementing the package's own Doer: the wrapper's inner call is the request).
	for _, s := range d.in.Judge.Models.Index.MethodSinks(m.Name()) {
		impl := d.lookupMethod(s.Func)
		if impl == nil || !d.implements(impl, iface) {
			continue
		}
		if found && !d.convertedHere(impl) {
			continue // the package's own implementations alone, as far as it shows
		}
		// The chain names the interface method called, as it always has (a finding's
		// fingerprint holds its chain): which of the types that implement it runs is
		// decided where the value is made, mostly out of view. Beside the package's own
		// implementations, it names the sink's method the package put behind it, which
		// tells the two apart.
		hop := m
		if found {
			hop = impl
		}
		if e := d.in.Judge.Eval(call, s, hop, n.scope); e != nil {
			n.Sites = append(n.Sites, Site{Pos: call.Pos(), line: d.line(call.Pos()), sink: e})
		}
		d.Open[open].InView = true
		return
	}
}

// implementationsAt adds to n a site per implementation of m on iface that a call at pos
// may run: the program-wide link's, this package's (unless not local), and its
// dependencies' with facts. It records the call as open (in view when anything answered
// it), and reports whether an implementation of the package or its dependencies did.
func (d *dispatcher) implementationsAt(n *Node, m *types.Func, iface *types.Interface, pos token.Pos, args []ast.Expr, local bool) bool {
	open := len(d.Open)
	d.Open = append(d.Open, OpenCall{Caller: n, Pos: pos, Kind: OpenInterface, Method: m, Recv: iface})
	seen := false
	for _, l := range d.in.Links[pos] {
		n.Sites = append(n.Sites, Site{Pos: pos, line: d.line(pos), callee: l.Name, fact: l.Fact, args: args})
	}
	for _, cand := range d.localMethods(m.Name()) {
		if local && d.implements(cand.Fn, iface) {
			d.callTarget(n, cand.Fn, pos, args)
			seen = true
		}
	}
	for _, fn := range d.importedMethods()[m.Name()] {
		if d.implements(fn, iface) {
			d.callTarget(n, fn, pos, args)
			seen = true
		}
	}
	d.Open[open].InView = seen || len(d.in.Links[pos]) > 0 || d.implementedBeside(m, iface)
	return seen
}

// implementedBeside reports whether a type declared beside the interface, in the package of
// its method m (a dependency's), implements it: a repository interface and the one type
// that implements it, in one package (store.Store and *store.PG). Such a method with no
// fact has no effects (a dependency's analysis gives every method with effects one, and a
// package not analysed is one the models describe), so the call is resolved, to nothing,
// and is no hole in what the handler is known to do. The standard library's are neutral
// anyway.
func (d *dispatcher) implementedBeside(m *types.Func, iface *types.Interface) bool {
	pkg := m.Pkg()
	if pkg == nil || pkg == d.in.Pkg || !model.OfProgram(pkg.Path(), d.in.Pkg.Path()) {
		return false
	}
	if v, ok := d.methods.beside[implKey{m, iface}]; ok {
		return v
	}
	v := false
	for _, named := range declaredTypes(pkg) {
		if !types.IsInterface(named) && (types.Implements(named, iface) || types.Implements(types.NewPointer(named), iface)) {
			v = true
			break
		}
	}
	if d.methods.beside == nil {
		d.methods.beside = map[implKey]bool{}
	}
	d.methods.beside[implKey{m, iface}] = v
	return v
}

// receiverInterface returns the interface an implementation must satisfy to be called by
// call: the static type of its receiver expression when that is an interface (of a method
// value or a method expression alike), else the interface that declares m.
func (d *dispatcher) receiverInterface(m *types.Func, call *ast.CallExpr) *types.Interface {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if t := d.in.Info.TypeOf(sel.X); t != nil {
			if it, ok := t.Underlying().(*types.Interface); ok {
				return it
			}
		}
	}
	it, _ := m.Signature().Recv().Type().Underlying().(*types.Interface)
	return it
}

// localMethods returns the package's methods named name, but for those declared in a
// _test.go file: a test double never runs in the service, whatever the test variant of the
// package sees.
func (d *dispatcher) localMethods(name string) []*Node {
	if d.methods.local == nil {
		d.methods.local = map[string][]*Node{}
		for _, n := range d.Nodes {
			if n.Fn != nil && n.Fn.Signature().Recv() != nil && !d.inTestFile(n.Fn.Pos()) {
				d.methods.local[n.Fn.Name()] = append(d.methods.local[n.Fn.Name()], n)
			}
		}
	}
	return d.methods.local[name]
}

// importedMethods indexes, once per pass, the methods of dependencies that carry facts.
func (d *dispatcher) importedMethods() map[string][]*types.Func {
	if d.methods.imported != nil {
		return d.methods.imported
	}
	d.methods.imported = map[string][]*types.Func{}
	for _, of := range d.in.Facts.AllObjectFacts() {
		fn, ok := of.Object.(*types.Func)
		if !ok || fn.Signature().Recv() == nil || fn.Pkg() == d.in.Pkg {
			continue
		}
		d.methods.imported[fn.Name()] = append(d.methods.imported[fn.Name()], fn)
	}
	for _, fns := range d.methods.imported {
		sort.Slice(fns, func(i, j int) bool { return fns[i].FullName() < fns[j].FullName() })
	}
	return d.methods.imported
}

// lookupMethod finds the method a full name like "(*pkg/path.Type).Name" denotes among the
// packages this one imports, directly or not; nil if that package is not in view.
func (d *dispatcher) lookupMethod(full string) *types.Func {
	// Every interface call of a method a sink shares a name with (Exec, Query, Send) asks;
	// resolving scans the import graph, so each name is resolved once per pass.
	if m, ok := d.methods.byName[full]; ok {
		return m
	}
	if d.methods.packages == nil {
		d.methods.packages = model.Packages{}
		d.methods.packages.Add(d.in.Pkg)
		d.methods.byName = map[string]*types.Func{}
	}
	fn, _ := model.Resolve(d.methods.packages, full)
	m, _ := fn.(*types.Func)
	d.methods.byName[full] = m
	return m
}

// implements reports whether an interface call on iface may run method fn: fn's receiver
// type implements iface, or a struct type of fn's package or of this one that does embeds
// it and has fn as its method (sqlc's *Queries inside a store that implements a wider
// Store interface). Answers are cached: every call site asks about the same candidates.
func (d *dispatcher) implements(fn *types.Func, iface *types.Interface) bool {
	k := implKey{fn, iface}
	if v, ok := d.methods.implements[k]; ok {
		return v
	}
	v := d.implementsUncached(fn, iface)
	if d.methods.implements == nil {
		d.methods.implements = map[implKey]bool{}
	}
	d.methods.implements[k] = v
	return v
}

type implKey struct {
	fn    *types.Func
	iface *types.Interface
}

func (d *dispatcher) implementsUncached(fn *types.Func, iface *types.Interface) bool {
	recv := fn.Signature().Recv()
	if recv == nil || types.IsInterface(recv.Type()) {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if ok && named.TypeParams().Len() > 0 {
		return false // a generic receiver cannot be checked without instantiation
	}
	if types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface) {
		return true
	}
	if !ok {
		return false
	}
	for _, pkg := range []*types.Package{fn.Pkg(), d.in.Pkg} {
		for _, s := range d.embedders(pkg)[named.Origin()] {
			if Selects(s, iface, fn) || Selects(types.NewPointer(s), iface, fn) {
				return true
			}
		}
	}
	return false
}

// embedders indexes, once per package, the struct types declared in pkg by the named types
// they embed directly.
func (d *dispatcher) embedders(pkg *types.Package) map[*types.Named][]*types.Named {
	if pkg == nil {
		return nil
	}
	if e, ok := d.methods.embedders[pkg]; ok {
		return e
	}
	if d.methods.embedders == nil {
		d.methods.embedders = map[*types.Package]map[*types.Named][]*types.Named{}
	}
	e := embeddersOf(pkg)
	d.methods.embedders[pkg] = e
	return e
}

// declaredTypes returns the named types declared at pkg's top level, aliases and generic
// types left out (a generic type's methods cannot be checked without instantiation).
func declaredTypes(pkg *types.Package) []*types.Named {
	var out []*types.Named
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if named, ok := tn.Type().(*types.Named); ok && named.TypeParams().Len() == 0 {
			out = append(out, named)
		}
	}
	return out
}

// embeddersOf returns the struct types declared in pkg by the named types they embed
// directly (through a pointer or not).
func embeddersOf(pkg *types.Package) map[*types.Named][]*types.Named {
	out := map[*types.Named][]*types.Named{}
	for _, named := range declaredTypes(pkg) {
		st, ok := named.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := 0; i < st.NumFields(); i++ {
			f := st.Field(i)
			if !f.Embedded() {
				continue
			}
			t := f.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if inner, ok := types.Unalias(t).(*types.Named); ok {
				out[inner.Origin()] = append(out[inner.Origin()], named)
			}
		}
	}
	return out
}

// Selects reports whether t implements iface and its method of fn's name is fn.
func Selects(t types.Type, iface *types.Interface, fn *types.Func) bool {
	if !types.Implements(t, iface) {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, fn.Pkg(), fn.Name())
	f, ok := obj.(*types.Func)
	return ok && f.Origin() == fn.Origin()
}

// implementationsOf returns the methods in view (the package's own, not in test files, and
// those of dependencies with facts) that implement the interface that declares m.
func (d *dispatcher) implementationsOf(m *types.Func) []*types.Func {
	iface, ok := m.Signature().Recv().Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	return d.implementing(m.Name(), iface)
}

// implementations returns the methods a call of the interface method m may run, among
// those in view: the package's own and those of dependencies that carry facts, whose
// receivers implement the call's receiver interface; the package's first, each group in a
// stable order. A program-wide link may know more (Links), this is what the package sees.
func (d *dispatcher) implementations(m *types.Func, call *ast.CallExpr) []*types.Func {
	iface := d.receiverInterface(m, call)
	if iface == nil {
		return nil
	}
	return d.implementing(m.Name(), iface)
}

// implementing returns the methods named name in view that implement iface: the package's
// own first, then its dependencies' with facts.
func (d *dispatcher) implementing(name string, iface *types.Interface) []*types.Func {
	var out []*types.Func
	for _, cand := range d.localMethods(name) {
		if d.implements(cand.Fn, iface) {
			out = append(out, cand.Fn)
		}
	}
	for _, fn := range d.importedMethods()[name] {
		if d.implements(fn, iface) {
			out = append(out, fn)
		}
	}
	return out
}

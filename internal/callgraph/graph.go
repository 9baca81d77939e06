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
//
// Graph is the package's face; its work is done by helpers with one job each, over the
// graph's data (core.go, node.go): the builder resolves each call once (build.go), handing
// function values to the function-value resolver (funcvalues.go), interface calls to the
// dispatcher (dispatch.go) and receive calls to the receive finder (receives.go); the
// solver propagates effects (solve.go) and Reach lists them all (reach.go).
package callgraph

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
)

// Graph is one package's functions and the sites between them. Its nodes and their indexes
// (Nodes, ByFunc, ByLit, Referenced, Open) and the lookups Fact, ClaimOf, Models, Linked
// and Innermost are the embedded core's.
type Graph struct {
	*core
	values   *valueResolver
	dispatch *dispatcher
	receives *receiveFinder
	solver   *solver
	open     *openCalls
}

// Build creates a node per function and literal, then resolves every call site once; Solve
// only propagates along the resolved sites.
func Build(in Input) *Graph {
	c := newCore(in)
	g := &Graph{core: c, values: &valueResolver{core: c}, dispatch: &dispatcher{core: c}, solver: &solver{core: c}, open: &openCalls{core: c}}
	g.receives = &receiveFinder{core: c, dispatch: g.dispatch}
	g.values.receiveCall = g.receives.receiveCall
	c.implementationsOf = g.dispatch.implementationsOf
	b := &builder{core: c, values: g.values, dispatch: g.dispatch, receives: g.receives}
	b.build()
	return g
}

// Solve propagates effects from callees to callers until nothing changes, then evaluates
// once more to learn which directives silenced something. Each node keeps, per kind, the
// worst state and the shortest chain to it; both only move one way (worse, shorter), so
// the loop ends, cycles and recursion included.
func (g *Graph) Solve() { g.solver.solve() }

// Reach returns every sink of kind k that n reaches, one entry per sink (SinkID), with the
// worst state and the shortest chain to it as effect.Effect.Worse orders them, sorted by
// position. Solve keeps one effect per kind; Reach lists all of them, for a finding that
// names the others. It applies what Solve applies on the way (directives, gates, keys and
// methods passed by callers, generated guards). A sink of another package counts once per
// function of that package called: its fact holds one effect per kind.
func (g *Graph) Reach(n *Node, k effect.Kind) []Reached { return reach(g.solver, n, k) }

// Region returns a node for a part of n's body, the sites between from and to, evaluated
// from the solved effects of what they call: the code of a receive loop that handles each
// message in place, whose span the handlers decide. It is named name and declared at body
// (a loop's, or a synthetic block that starts at the receive), is not in Nodes and exports
// no fact; n's directives apply. Call it after Solve.
func (g *Graph) Region(n *Node, name string, body *ast.BlockStmt, from, to token.Pos) *Node {
	r := &Node{Name: name, Body: body, Parent: n.Parent, File: n.File, scope: n.scope,
		Barrier: n.Barrier, Ignores: n.Ignores, Decisions: n.Decisions, region: n, from: from, to: to}
	for _, s := range n.Sites {
		if s.Pos >= from && s.Pos < to {
			r.Sites = append(r.Sites, s)
		}
	}
	g.solver.evaluate(r, true)
	return r
}

// Dispatched returns a node for what a framework runs when it calls interface method m of
// a value handed to it at pos (the method value l.Handle of an interface l, registered in
// owner): the implementations of its dependencies and those a program-wide link found,
// not this package's (handlers of their own). Like a region, it is evaluated on the
// solved graph and is not one of g.Nodes; its call is open, for the link and for the
// partial marker.
func (g *Graph) Dispatched(owner *Node, name string, m *types.Func, iface *types.Interface, pos token.Pos) *Node {
	d := &Node{Name: name, Body: &ast.BlockStmt{Lbrace: pos, Rbrace: pos}, Parent: owner, File: owner.File, scope: owner.scope, Sig: m.Signature()}
	g.dispatch.implementationsAt(d, m, iface, pos, nil, false)
	g.solver.evaluate(d, true)
	return d
}

// Unresolved returns the interface calls n makes, itself or through the functions of this
// package it calls, that the analysis resolved to nothing (no implementation in view, no
// modelled sink, no link), by position. A driver that sees the whole program can tell
// which of them nothing in the program implements: there the handler's effects may be
// incomplete, and the inventory says so.
func (g *Graph) Unresolved(n *Node) []OpenCall { return g.open.unresolved(n) }

// Unfollowed returns the function values n calls in its own body (in its region, for a
// receive loop) of which nothing is in view (a parameter, a captured parameter of the
// function that made n, a field nothing in the package fills, each once): what runs there
// is not known here.
func (g *Graph) Unfollowed(n *Node) []string { return g.open.unfollowed(n) }

// Used returns the directives (//idemlint:ignore, //idemlint:idempotent) that silenced a
// finding so far: in Solve, and in the nodes made after it for handlers (Region,
// Dispatched), in the order they were first used.
func (g *Graph) Used() []*directive.Directive { return g.solver.used }

// Facts returns each declared function's effects, and the parameters it calls, for
// importing packages. An unexported function that is not a method gets none: no other
// package can call it (a reference to it here counts as a call here, so what it does
// reaches importers through the exported function that hands it out), and facts travel
// with every importer.
func (g *Graph) Facts() []FuncFact {
	return funcFacts(g.Nodes, g.ClaimOf, g.RequestOf, g.GuardOf, g.receives.returned, exportedOrMethod, true)
}

// FactsOf returns the facts Facts would give the functions keep selects, exported or not:
// for a table that carries the effects of the unexported functions it lists.
func (g *Graph) FactsOf(keep func(*types.Func) bool) []FuncFact {
	return funcFacts(g.Nodes, g.ClaimOf, g.RequestOf, g.GuardOf, g.receives.returned, keep, true)
}

// Methods returns the package's methods that have effects, exported or not: an interface
// call can reach either, for a program-wide link.
func (g *Graph) Methods() []FuncFact {
	return funcFacts(g.Nodes, g.ClaimOf, g.RequestOf, g.GuardOf, g.receives.returned, isMethod, false)
}

// Summary returns the package's open interface calls, grouped by method and receiver type,
// and its methods with effects; Converted is for the caller to fill (Conversions).
func (g *Graph) Summary() *Summary { return &Summary{Open: openGroups(g.Open), Methods: g.Methods()} }

// StoredElements returns the expressions the package stores as elements of the slice, map
// or array held in the slot (a struct field or a package variable) e reads: listed in a
// composite literal stored there, or in one a local variable stored there was defined as,
// or appended to that variable (list = append(list, inv.Compute)). For a registration
// loop over a configuration's field (for _, a := range cfg.Activities).
func (g *Graph) StoredElements(e ast.Expr) []ast.Expr { return g.values.storedElements(e) }

// Implementations returns the methods a call of the interface method m may run, among
// those in view: the package's own and those of dependencies that carry facts, whose
// receivers implement the call's receiver interface; the package's first, each group in a
// stable order. A program-wide link may know more (Links), this is what the package sees.
func (g *Graph) Implementations(m *types.Func, call *ast.CallExpr) []*types.Func {
	return g.dispatch.implementations(m, call)
}

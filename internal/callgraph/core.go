package callgraph

// The graph's data and the lookups every stage of it makes: the helpers (the builder, the
// function-value resolver, the interface dispatcher, the receive finder, the solver) each
// hold a pointer to one core and share its nodes, open calls and fact lookups, so that no
// answer is computed twice and none of them has to reach through the Graph.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/defuse"
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
	// ReceiveSpan returns the part of n's body, [from, to), that handles what the receive
	// call r received (handlers.ReceiveSpan). Which code handles a message is the
	// handlers' knowledge; the graph needs the answer while it is built, before Solve,
	// because the sites there are the region's handler's and not n's own effects (nor its
	// callers', nor its fact's). Nil: no site is a region's.
	ReceiveSpan func(n *Node, r Receive) (from, to token.Pos)
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

// core is one package's nodes and the lookups on them and on imported facts. Its exported
// fields are promoted to Graph, where other packages read them.
type core struct {
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
	// implementationsOf returns the methods in view that implement an interface method
	// (dispatcher.implementationsOf), for ClaimOf's answer on an interface call.
	implementationsOf func(*types.Func) []*types.Func
	claims            map[*Node]*effect.Claim   // ClaimOf's answers for the package's functions
	requests          map[*Node]*effect.Request // RequestOf's answers
	guards            map[*Node]*bool           // GuardOf's answers
}

// newCore returns an empty core for in, its indexes made.
func newCore(in Input) *core {
	return &core{
		in:          in,
		ByFunc:      map[*types.Func]*Node{},
		ByLit:       map[*ast.FuncLit]*Node{},
		Referenced:  map[*types.Func]bool{},
		importFacts: map[*types.Func]*effect.Fact{},
	}
}

// add appends n to the package's nodes, with the origins map evaluate fills.
func (c *core) add(n *Node) {
	n.From = map[effect.Kind]Origin{}
	c.Nodes = append(c.Nodes, n)
}

// line is pos's line, by which a site finds the ignore directives above it.
func (c *core) line(pos token.Pos) int { return c.in.Fset.Position(pos).Line }

// visit tells Input.Visit that n is worked on, so that a panic can name it.
func (c *core) visit(n *Node) {
	if c.in.Visit != nil {
		c.in.Visit(n.Name)
	}
}

// Fact returns the effects fact of a function of another package, or nil.
func (c *core) Fact(fn *types.Func) *effect.Fact {
	if f, ok := c.importFacts[fn]; ok {
		return f
	}
	f := new(effect.Fact)
	if !c.in.Facts.ImportObjectFact(fn, f) {
		f = nil
	}
	c.importFacts[fn] = f
	return f
}

// ClaimOf says what fn's result reports of a claim its body makes: for a function of the
// package, read from its body once; for another package's, from its fact; for an interface
// method, what every implementation in view says alike (a repository's Claim behind its
// interface, with test doubles left out).
func (c *core) ClaimOf(fn *types.Func) *effect.Claim {
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) && c.implementationsOf != nil {
		return c.abstractClaim(fn)
	}
	return bodySummary(c, fn, &c.claims, func(f *effect.Fact) *effect.Claim { return f.Claim }, func(n *Node) *effect.Claim {
		return c.in.Judge.ReturnedClaim(n.Body, n.Sig, n.scope, c.ClaimOf)
	})
}

// abstractClaim is what every implementation in view of the interface method m says of a
// claim, when they all say the same; nil when none is in view or they differ. A mock
// generated into the package (isMock) never runs in the service and is left out. A decorator
// of the interface (a type holding a value of it in a field: a generated metrics or tracing
// wrapper) says what the value it wraps says, so it is left out: its own body, which hands
// the call on to the interface, reads nil while this answer is being made.
func (c *core) abstractClaim(m *types.Func) *effect.Claim {
	var out *effect.Claim
	for _, impl := range c.implementationsOf(m) {
		if decorates(impl, m) || isMock(impl) {
			continue
		}
		cl := c.ClaimOf(impl)
		if cl == nil || (out != nil && !cl.Same(out)) {
			return nil
		}
		if out == nil {
			out = cl
		}
	}
	return out
}

// decorates reports whether impl's receiver type is a struct with a field of m's interface
// type.
func decorates(impl, m *types.Func) bool {
	iface := m.Signature().Recv().Type()
	return hasField(impl, func(t types.Type) bool { return types.Identical(t, iface) })
}

// mockPackages are the packages of the types a generated mock holds: gomock's controller,
// testify's Mock.
var mockPackages = map[string]string{
	"github.com/golang/mock/gomock":    "Controller",
	"go.uber.org/mock/gomock":          "Controller",
	"github.com/stretchr/testify/mock": "Mock",
}

// isMock reports whether impl is a method of a generated mock (mockgen's, mockery's): its
// receiver holds a gomock Controller or embeds testify's Mock. Mocks generated into a
// package's own files, not its _test.go files, are as much test doubles as those.
func isMock(impl *types.Func) bool {
	return hasField(impl, func(t types.Type) bool {
		n, ok := types.Unalias(defuse.Deref(t)).(*types.Named)
		return ok && n.Obj().Pkg() != nil && mockPackages[n.Obj().Pkg().Path()] == n.Obj().Name()
	})
}

// hasField reports whether fn's receiver type is a struct with a field whose type is.
func hasField(fn *types.Func, is func(types.Type) bool) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	st, ok := types.Unalias(defuse.Deref(recv.Type())).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		if is(st.Field(i).Type()) {
			return true
		}
	}
	return false
}

// RequestOf says what fn's first result is of an HTTP request its body builds (a
// newRequest helper): for a function of the package, read from its body once; for another
// package's, from its fact.
func (c *core) RequestOf(fn *types.Func) *effect.Request {
	return bodySummary(c, fn, &c.requests, func(f *effect.Fact) *effect.Request { return f.Request }, func(n *Node) *effect.Request {
		sc := sinks.Scope{Name: n.Name, Func: n.Fn, Params: map[*types.Var]bool{}, Built: c.RequestOf, Guarded: c.GuardOf}
		if n.Sig != nil {
			for i := 0; i < n.Sig.Params().Len(); i++ {
				sc.Params[n.Sig.Params().At(i)] = true
			}
		}
		return c.in.Judge.ReturnedRequest(n.Body, n.Sig, sc)
	})
}

// GuardOf says whether fn returns a query builder its chain guards (an OnConflictUpdate
// helper): for a function of the package, read from its body once; for another package's,
// from its fact.
func (c *core) GuardOf(fn *types.Func) bool {
	g := bodySummary(c, fn, &c.guards, func(f *effect.Fact) *bool { return &f.Guards }, func(n *Node) *bool {
		sc := sinks.Scope{Name: n.Name, Func: n.Fn, Guarded: c.GuardOf}
		guards := c.in.Judge.ReturnsGuarded(n.Body, n.Sig, sc)
		return &guards
	})
	return g != nil && *g
}

// bodySummary is what fn's body says of its result (ClaimOf, RequestOf): for a function of
// the package, read once by read and kept in memo; for another package's, ofFact of its
// fact; nil for neither. A recursive helper reads nil of itself while its body is read.
func bodySummary[T any](c *core, fn *types.Func, memo *map[*Node]*T, ofFact func(*effect.Fact) *T, read func(*Node) *T) *T {
	n := c.ByFunc[fn]
	if n == nil {
		if fn.Pkg() == nil || fn.Pkg() == c.in.Pkg {
			return nil
		}
		if f := c.Fact(fn); f != nil {
			return ofFact(f)
		}
		return nil
	}
	if v, ok := (*memo)[n]; ok {
		return v
	}
	if *memo == nil {
		*memo = map[*Node]*T{}
	}
	(*memo)[n] = nil
	v := read(n)
	(*memo)[n] = v
	return v
}

// callTarget adds a site for a call of (or reference to) fn at pos; args are the call's
// arguments, nil for a reference. The builder, the function-value resolver and the
// dispatcher all end a call here: one place decides what a callee of this package or of
// another one brings.
func (c *core) callTarget(n *Node, fn *types.Func, pos token.Pos, args []ast.Expr) {
	if local := c.ByFunc[fn]; local != nil {
		n.Sites = append(n.Sites, Site{Pos: pos, line: c.line(pos), callee: local.HopName(), local: local, args: args})
		return
	}
	if fn.Pkg() == nil || fn.Pkg() == c.in.Pkg {
		return
	}
	if f := c.Fact(fn); f != nil {
		n.Sites = append(n.Sites, Site{Pos: pos, line: c.line(pos), callee: effect.FuncName(fn, nil), fact: f, args: args})
		if f.Checks != "" && args != nil {
			// A call, not a reference (mux.HandleFunc(path, svc.Handle) registers it).
			n.ChecksVia = append(n.ChecksVia, Checked{fn, f.Checks})
		}
	}
}

// Models returns the model lookups the graph was built with.
func (c *core) Models() *model.Entries { return c.in.Judge.Models }

// Linked returns the implementations a program-wide link found for the interface call at
// pos, outside the package's import cone (nil without a link).
func (c *core) Linked(pos token.Pos) []Linked { return c.in.Links[pos] }

// inTestFile reports whether pos is in a _test.go file.
func (c *core) inTestFile(pos token.Pos) bool {
	f := c.in.Fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// comparePos orders two positions of the package (ComparePos).
func (c *core) comparePos(a, b token.Pos) int { return ComparePos(c.in.Fset, a, b) }

// Innermost returns the node whose body most closely encloses pos, or nil.
func (c *core) Innermost(pos token.Pos) *Node {
	var best *Node
	for _, n := range c.Nodes {
		if n.Body != nil && n.Body.Pos() <= pos && pos < n.Body.End() &&
			(best == nil || n.Body.Pos() >= best.Body.Pos()) {
			best = n
		}
	}
	return best
}

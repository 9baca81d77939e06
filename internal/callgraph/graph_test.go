package callgraph_test

import (
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks"
	"github.com/chokaq/idemlint/internal/testpkg"
)

const src = `package p

func Send(to string) error { return nil }

type Notifier interface{ Notify(string) error }

// Handle reaches Send through helper, and recursion through a and b settles.
func Handle(id string) error { return helper(id) }
func helper(id string) error { a(3); return Send(id) }
func a(n int) { if n > 0 { b(n - 1) } }
func b(n int) { a(n) }

// Open: an interface none of whose implementations is in view, and a function value.
func Open(n Notifier, f func()) { n.Notify("x"); f() }

// Closure: a literal's effects are its encloser's.
func Closure() { func() { Send("y") }() }
`

const models = `library: p
sinks:
  - func: "p.Send"
    kind: email.send
    shape: send
`

func build(t *testing.T) *callgraph.Graph { return buildFrom(t, src) }

func buildFrom(t *testing.T, src string) *callgraph.Graph {
	lib, err := model.Parse("models.yml", []byte(models))
	if err != nil {
		t.Fatal(err)
	}
	g := buildWith(t, src, model.NewEntries(model.Compile([]model.Library{lib})))
	g.Solve()
	return g
}

// buildWith builds (does not solve) the graph of the one-file package src under entries.
func buildWith(t *testing.T, src string, entries *model.Entries) *callgraph.Graph {
	p := testpkg.Check(t, "p", src)
	judge := &sinks.Judge{Defs: defuse.Build(p.Pkg, p.Info, []*ast.File{p.File}), Models: entries, Fset: p.Fset}
	g := callgraph.Build(callgraph.Input{
		Pkg: p.Pkg, Info: p.Info, Fset: p.Fset, Files: []*ast.File{p.File},
		Directives: func(*ast.File) *directive.File { return nil },
		Judge:      judge,
		Facts: callgraph.Facts{
			ImportObjectFact: func(types.Object, analysis.Fact) bool { return false },
			AllObjectFacts:   func() []analysis.ObjectFact { return nil },
		},
	})
	return g
}

func node(t *testing.T, g *callgraph.Graph, name string) *callgraph.Node {
	for _, n := range g.Nodes {
		if n.Name == name {
			return n
		}
	}
	t.Fatalf("no node %s", name)
	return nil
}

func TestSolvePropagates(t *testing.T) {
	g := build(t)
	h := node(t, g, "Handle")
	e, ok := h.Effects.Get(effect.EmailSend)
	if !ok {
		t.Fatalf("Handle has no email.send effect: %v", h.Effects)
	}
	var hops []string
	for _, hop := range e.Chain {
		hops = append(hops, hop.Func)
	}
	if got := strings.Join(hops, " -> "); got != "p.helper -> p.Send" {
		t.Errorf("chain = %s, want p.helper -> p.Send", got)
	}
	if o := h.From[effect.EmailSend]; o.Via == nil || o.Via.Name != "helper" {
		t.Errorf("Handle's effect should come via helper, got %+v", o)
	}
	if _, ok := node(t, g, "Closure").Effects.Get(effect.EmailSend); !ok {
		t.Errorf("a called literal's effect is not its encloser's")
	}
	if len(node(t, g, "a").Effects) != 0 {
		t.Errorf("a reaches nothing, got %v", node(t, g, "a").Effects)
	}
	facts := map[string]bool{}
	for _, f := range g.Facts() {
		facts[f.Fn.Name()] = true
	}
	if !facts["Handle"] || facts["helper"] {
		t.Errorf("facts for %v: want Handle (exported), not helper (unexported function)", facts)
	}
}

func TestOpenCalls(t *testing.T) {
	g := build(t)
	var kinds []callgraph.OpenKind
	for _, o := range g.Open {
		if o.Caller.Name == "Open" {
			kinds = append(kinds, o.Kind)
			if o.Kind == callgraph.OpenInterface && (o.Method == nil || o.Method.Name() != "Notify" || o.Recv == nil) {
				t.Errorf("open interface call without its method and receiver type: %+v", o)
			}
		}
	}
	if len(kinds) != 2 || kinds[0] != callgraph.OpenInterface || kinds[1] != callgraph.OpenFuncValue {
		t.Errorf("open calls of Open = %v, want [interface, function value]", kinds)
	}
}

const reachSrc = `package p

func Send(to string) error { return nil }

// Handle reaches three sends: one in its body, one through two paths (a diamond), one
// inside a recursion; Solve keeps the one in its body, the shortest chain.
func Handle() { Send("a"); left(); right(); ping(2) }
func left()   { shared() }
func right()  { shared() }
func shared() { Send("b") }
func ping(n int) { if n > 0 { pong(n) } }
func pong(n int) { Send("c"); ping(n - 1) }
`

// Reach lists every sink of a kind once, with its shortest chain, sorted by position, and
// ends on recursion; the solved effect is the first of them.
func TestReach(t *testing.T) {
	g := buildFrom(t, reachSrc)
	h := node(t, g, "Handle")
	var got []string
	for _, r := range g.Reach(h, effect.EmailSend) {
		var hops []string
		for _, hop := range r.Effect.Chain {
			hops = append(hops, hop.Func)
		}
		got = append(got, strings.Join(hops, " -> "))
	}
	want := []string{"p.Send", "p.left -> p.shared -> p.Send", "p.ping -> p.pong -> p.Send"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("Reach(Handle) = %q, want %q", got, want)
	}
	e, _ := h.Effects.Get(effect.EmailSend)
	if callgraph.SinkID(e) != "p.Send@p.go:7" {
		t.Errorf("solved sink %s, want the send in Handle's body", callgraph.SinkID(e))
	}
	if r := g.Reach(node(t, g, "pong"), effect.EmailSend); len(r) != 1 {
		t.Errorf("Reach(pong) = %+v: want its own send only", r)
	}
	if r := g.Reach(h, effect.SQLWrite); len(r) != 0 {
		t.Errorf("Reach of another kind = %+v", r)
	}
}

const callsSrc = `package p

type F func(int)

var kept F

func Direct(f F)              { if f != nil { f(1) } }
func InGoroutine(f func())    { go func() { f() }() }
func Passed(x int, f F)       { Direct(f) }
func Recursive(n int, f F)    { if n > 0 { f(n); Recursive(n-1, f) } }
func Returned(f F) F          { f(1); return f }
func Stored(f F)              { f(1); kept = f }
func Unused(f F)              {}
func Variadic(fs ...func())   { for _, f := range fs { f() } }
func Second(a F, b F)         { b(2); Stored(a) }
func Mutual(n int, f F)       { if n > 0 { f(n); Other(n, f) } }
func Other(n int, f F)        { Mutual(n-1, f) }
`

// Calls marks the parameters a function only calls: directly, in a closure, by handing
// them to a function that only calls them (recursion and cycles included); a parameter
// that escapes, is never called, or is variadic is not marked.
func TestCallsParams(t *testing.T) {
	g := buildWith(t, callsSrc, model.NewEntries(model.Compile(nil)))
	want := map[string]uint64{
		"Direct": 1, "InGoroutine": 1, "Passed": 2, "Recursive": 2, "Returned": 0,
		"Stored": 0, "Unused": 0, "Variadic": 0, "Second": 2, "Mutual": 2, "Other": 2,
	}
	for name, mask := range want {
		if got := node(t, g, name).Calls; got != mask {
			t.Errorf("%s: Calls = %b, want %b", name, got, mask)
		}
	}
	facts := map[string]uint64{}
	for _, f := range g.Facts() {
		facts[f.Fn.Name()] = f.Fact.Calls
	}
	if facts["Direct"] != 1 || facts["Mutual"] != 2 {
		t.Errorf("facts carry Calls of functions with no effects: %v", facts)
	}
	if _, ok := facts["Stored"]; ok {
		t.Errorf("a function with no effects and no called parameter got a fact: %v", facts)
	}
}

const regionSrc = `package p

type Notifier interface{ Notify(string) error }

func Send(to string) error { return nil }

// Loop: one open call before the loop, one inside it, one after it.
func Loop(n Notifier, msgs []string) {
	n.Notify("before")
	for _, m := range msgs {
		n.Notify(m)
		Send(m)
	}
	n.Notify("after")
}
`

// A region (a receive loop's handler) lists the unresolved calls of its span of the
// function, not the function's others.
func TestRegionUnresolved(t *testing.T) {
	g := buildFrom(t, regionSrc)
	loop := node(t, g, "Loop")
	var rng *ast.RangeStmt
	ast.Inspect(loop.Body, func(x ast.Node) bool {
		if r, ok := x.(*ast.RangeStmt); ok {
			rng = r
		}
		return rng == nil
	})
	r := g.Region(loop, "receive loop in Loop", rng.Body, rng.Body.Pos(), rng.End())
	if _, ok := r.Effects.Get(effect.EmailSend); !ok {
		t.Fatalf("the region has no effect of its Send: %v", r.Effects)
	}
	got := g.Unresolved(r)
	if len(got) != 1 || got[0].Pos < rng.Body.Pos() || got[0].Pos >= rng.End() {
		t.Errorf("region's unresolved calls = %+v, want the one Notify inside the loop", got)
	}
	if all := g.Unresolved(loop); len(all) != 3 {
		t.Errorf("function's unresolved calls = %d, want 3", len(all))
	}
}

// A step call's function arguments are recovery points: the effects a literal, a function
// value or a local variable holding a literal brings through it are marked (effect.Step),
// with the step's mode; an effect outside any step is not, and is kept over one inside.
func TestSteps(t *testing.T) {
	const src = `package p

import "context"

func Send(to string) error { return nil }
func Step[T any](ctx context.Context, name string, fn func(context.Context) (T, error)) (T, error) { return fn(ctx) }
func TxStep[T any](ctx context.Context, name string, fn func(context.Context) (T, error)) (T, error) { return fn(ctx) }

func send(ctx context.Context) (int, error) { return 0, Send("a") }

func Literal(ctx context.Context) { Step(ctx, "s", func(ctx context.Context) (int, error) { return 0, Send("b") }) }
func Value(ctx context.Context) { Step(ctx, "s", send) }
func Variable(ctx context.Context) {
	f := func(ctx context.Context) (int, error) { return 0, Send("c") }
	TxStep(ctx, "s", f)
}
func Outside(ctx context.Context) { Step(ctx, "s", send); Send("d") }
`
	const steps = models + `steps: ["p.Step"]
tx_steps: ["p.TxStep"]
`
	lib, err := model.Parse("models.yml", []byte(steps))
	if err != nil {
		t.Fatal(err)
	}
	g := buildWith(t, src, model.NewEntries(model.Compile([]model.Library{lib})))
	g.Solve()
	for name, want := range map[string]effect.StepMode{"Literal": effect.InStep, "Value": effect.InStep, "Variable": effect.InTxStep, "Outside": effect.NoStep, "send": effect.NoStep} {
		e, ok := node(t, g, name).Effects.Get(effect.EmailSend)
		if !ok {
			t.Errorf("%s: no email.send effect", name)
			continue
		}
		if e.Step != want {
			t.Errorf("%s: step %d, want %d", name, e.Step, want)
		}
	}
}

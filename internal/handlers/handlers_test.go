package handlers_test

import (
	"go/ast"
	"go/types"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/handlers"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks"
	"github.com/chokaq/idemlint/internal/testpkg"
)

// The stage is tested on one-file packages with a model written here: a queue whose
// handlers are func(context.Context, *p.Message) error, registered with (*p.Mux).Handle,
// and an e-mail sink.

const models = `library: p
handlers:
  - framework: q
    params: ["context.Context", "*p.Message"]
    results: ["error"]
registrations:
  - func: "(*p.Mux).Handle"
    arg: 1
    framework: q
sinks:
  - func: "p.Send"
    kind: email.send
    shape: send
`

const src = `package p

import "context"

type Message struct{ ID string }

type Mux struct{}

func (*Mux) Handle(name string, h func(context.Context, *Message) error) {}

func Send(to string) error { return nil }

// Exported has the handler shape and is exported: another package may register it.
func Exported(ctx context.Context, m *Message) error { return notify(m.ID) }

func notify(id string) error { return deliver(id) }

func deliver(id string) error { return Send(id) }

// unexported has the shape but is neither exported nor used as a value: no handler.
func unexported(ctx context.Context, m *Message) error { return Send(m.ID) }

// registered is unexported, handed to a registration: a handler.
func registered(ctx context.Context, m *Message) error { return nil }

//idemlint:handler -- run by the cron table
func Marked() { _ = Send("ops") }

func Wire(mux *Mux) {
	mux.Handle("a", registered)
	mux.Handle("b", func(ctx context.Context, m *Message) error { return Send(m.ID) })
}
`

// find runs the call graph and Find on src.
func find(t *testing.T, src string) handlers.Found {
	t.Helper()
	lib, err := model.Parse("models.yml", []byte(models))
	if err != nil {
		t.Fatal(err)
	}
	entries := model.NewEntries(model.Compile([]model.Library{lib}))
	p := testpkg.Check(t, "p", src)
	files := []*ast.File{p.File}
	dirs := directive.ParseFile(p.File, p.Fset)
	defs := defuse.Build(p.Pkg, p.Info, files)
	g := callgraph.Build(callgraph.Input{
		Pkg: p.Pkg, Info: p.Info, Fset: p.Fset, Files: files,
		Directives: func(*ast.File) *directive.File { return dirs },
		Judge:      &sinks.Judge{Defs: defs, Models: entries, Fset: p.Fset},
		Facts: callgraph.Facts{
			ImportObjectFact: func(types.Object, analysis.Fact) bool { return false },
			AllObjectFacts:   func() []analysis.ObjectFact { return nil },
		},
	})
	g.Solve()
	in := handlers.Input{Pkg: p.Pkg, Info: p.Info, Fset: p.Fset, Files: files, Graph: g, Defs: defs, Models: entries}
	in.Wrappers, in.Fields = handlers.FindWrappers(in)
	return handlers.Find(in)
}

func byName(t *testing.T, f handlers.Found, name string) handlers.Handler {
	t.Helper()
	for _, h := range f.Handlers {
		if h.Name == name {
			return h
		}
	}
	var names []string
	for _, h := range f.Handlers {
		names = append(names, h.Name)
	}
	t.Fatalf("no handler %s among %q", name, names)
	return handlers.Handler{}
}

func TestFind(t *testing.T) {
	f := find(t, src)
	var names []string
	for _, h := range f.Handlers {
		names = append(names, h.Name+"/"+h.Framework)
	}
	want := []string{"Exported/q", "registered/q", "Marked/directive", "func literal in Wire/q"}
	if !slices.Equal(names, want) {
		t.Errorf("handlers = %q, want %q", names, want)
	}
	if len(f.Used) != 1 || f.Used[0].Verb != directive.Handler {
		t.Errorf("used = %+v: want the //idemlint:handler directive", f.Used)
	}
}

// A handler is a plain value: its effects, where each enters its body and the hops after,
// its declaration, and every sink of a kind it reaches.
func TestHandlerValue(t *testing.T) {
	h := byName(t, find(t, src), "Exported")
	if _, ok := h.Effects.Get(effect.EmailSend); !ok {
		t.Fatalf("effects = %v", h.Effects)
	}
	p := h.Paths[effect.EmailSend]
	if !p.Call.IsValid() || len(p.Hops) != 2 || p.Hops[0].Func != "notify" || p.Hops[1].Func != "deliver" {
		t.Errorf("path = %+v: want the call of notify, then notify's and deliver's calls", p)
	}
	if len(p.Hops) == 2 && p.Last != p.Hops[1].Pos {
		t.Errorf("last = %v, want deliver's call of Send %v", p.Last, p.Hops[1].Pos)
	}
	if h.Decl == nil || !h.Decl.DocEnd.IsValid() || h.Decl.Start >= h.Pos || h.Body <= h.Pos {
		t.Errorf("decl = %+v, pos %v, body %v", h.Decl, h.Pos, h.Body)
	}
	if r := h.Reached[effect.EmailSend]; len(r) != 1 {
		t.Errorf("reached = %+v: want the one Send", r)
	}
	lit := byName(t, find(t, src), "func literal in Wire")
	if lit.Decl != nil || lit.Paths[effect.EmailSend].Call != lit.Paths[effect.EmailSend].Last {
		t.Errorf("a literal has no declaration, and its own call is the last: %+v", lit)
	}
}

// A declaration that names a key gets the types its body declares, where the check looks
// for the key; a handler without one is not walked for them.
func TestLocalsOnlyForADeclaredKey(t *testing.T) {
	const keyed = `package p

import "context"

type Message struct{ Body []byte }
type order struct{ OrderID string }

func Send(to string) error { return nil }

// Handle decodes an order.
//
//idemlint:decisions key=OrderID enforce=outbox ttl=24h partial=manual-review -- why
func Handle(ctx context.Context, m *Message) error { var o order; return Send(o.OrderID) }

func Other(ctx context.Context, m *Message) error { var o order; return Send(o.OrderID) }
`
	f := find(t, keyed)
	if h := byName(t, f, "Handle"); len(h.Locals) != 1 || h.Locals[0].String() != "p.order" || h.Decisions == nil {
		t.Errorf("locals = %v, decisions %v", h.Locals, h.Decisions)
	}
	if h := byName(t, f, "Other"); h.Locals != nil {
		t.Errorf("locals = %v without a declaration", h.Locals)
	}
}

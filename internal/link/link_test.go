package link

import (
	"encoding/json"
	"go/token"
	"go/types"
	"reflect"
	"slices"
	"testing"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/testpkg"
	"github.com/chokaq/idemlint/internal/topics"
)

const src = `package p

import "context"

type Order struct{ ID string }

type Store interface {
	Create(ctx context.Context, o Order) error
}

// Same as Store but for the parameter names: one type to go/types.
type Renamed interface {
	Create(c context.Context, x Order) error
}

type Pointered interface {
	Create(context.Context, *Order) error
}

type hidden interface{ do() }

type byValue struct{}

func (byValue) Create(ctx context.Context, o Order) error { return nil }

type byPointer struct{}

func (*byPointer) Create(ctx context.Context, o Order) error { return nil }

type wrong struct{}

func (wrong) Create(ctx context.Context, o *Order) error { return nil }

type Inner struct{}

func (*Inner) Create(ctx context.Context, o Order) error { return nil }

type outer struct{ *Inner }

type doer struct{}

func (doer) do() {}

func local() {
	type Order struct{ ID int }
	_ = Order{}
}
`

func checked(t *testing.T) (*testpkg.Package, func(string) types.Object) {
	t.Helper()
	p := testpkg.Check(t, "p", src)
	return p, func(name string) types.Object {
		obj := p.Pkg.Scope().Lookup(name)
		if obj == nil {
			t.Fatalf("no %s", name)
		}
		return obj
	}
}

func iface(obj types.Object) *types.Interface { return obj.Type().Underlying().(*types.Interface) }

// Interfaces are one type when go/types says so: parameter names do not count, parameter
// types do, and an unexported method's name carries its package.
func TestCanonInterfaces(t *testing.T) {
	p, lookup := checked(t)
	w := &writer{fset: p.Fset}
	store, renamed, pointered := w.iface(iface(lookup("Store"))), w.iface(iface(lookup("Renamed"))), w.iface(iface(lookup("Pointered")))
	if store.Key != renamed.Key {
		t.Errorf("Store %q and Renamed %q differ", store.Key, renamed.Key)
	}
	if store.Key == pointered.Key {
		t.Errorf("Store and Pointered are both %q", store.Key)
	}
	if got := w.iface(iface(lookup("hidden"))).Methods; len(got) != 1 || got[0].Name != "p.do" {
		t.Errorf("hidden's methods %+v, want one named p.do", got)
	}
}

// Whether a converted type (or a pointer to it) implements an interface, and which method a
// call runs, are what go/types says, promoted methods included.
func TestLinkAgreesWithGoTypes(t *testing.T) {
	p, lookup := checked(t)
	var converted []*types.Named
	for _, name := range []string{"byValue", "byPointer", "wrong", "outer", "doer"} {
		converted = append(converted, lookup(name).Type().(*types.Named))
	}
	sum := Canon(p.Fset, &callgraph.Summary{Converted: converted})
	im := implementsMemo{}
	for _, ifaceName := range []string{"Store", "Renamed", "Pointered", "hidden"} {
		it := iface(lookup(ifaceName))
		ci := (&writer{fset: p.Fset}).iface(it)
		for i, n := range converted {
			for _, ptr := range []bool{false, true} {
				var typ types.Type = n
				if ptr {
					typ = types.NewPointer(n)
				}
				want := types.Implements(typ, it)
				if got := im.implements(candidate{&sum.Converted[i], ptr}, ci); got != want {
					t.Errorf("%s implements %s: %v, go/types says %v", typ, ifaceName, got, want)
				}
			}
		}
	}
	// (*outer).Create is (*Inner).Create, promoted.
	outer := sum.Converted[3]
	i := slices.IndexFunc(outer.Pointer, func(i Impl) bool { return i.Name == "Create" })
	if i < 0 || outer.Pointer[i].Hop != "(*p.Inner).Create" {
		t.Errorf("outer's pointer method set %+v: want Create as (*p.Inner).Create", outer.Pointer)
	}
	if !outer.Pointer[i].Member.equalSig(outer.Value) {
		t.Errorf("outer's value method set %+v lacks (*Inner).Create, which a pointer field promotes", outer.Value)
	}
}

// equalSig reports whether ms holds a member of m's name and signature.
func (m Member) equalSig(ms []Member) bool { return slices.Contains(ms, m) }

// An open call on Store reaches the methods with effects of the converted types that
// implement it, outside the caller's cone, by name; the calls' positions are the links'
// keys.
func TestLink(t *testing.T) {
	p, lookup := checked(t)
	var converted []*types.Named
	for _, name := range []string{"byValue", "byPointer", "wrong", "outer"} {
		converted = append(converted, lookup(name).Type().(*types.Named))
	}
	method := func(typ, name string) *types.Func {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(lookup(typ).Type()), true, p.Pkg, name)
		return obj.(*types.Func)
	}
	fact := &effect.Fact{Effects: effect.Set{{Kind: effect.SQLWrite, State: effect.Unprotected}}}
	create := iface(lookup("Store")).Method(0)
	pos := p.File.Package // any position of the file
	impl := Canon(p.Fset, &callgraph.Summary{
		Converted: converted,
		Methods:   []callgraph.FuncFact{{Fn: method("byPointer", "Create"), Fact: fact}, {Fn: method("wrong", "Create"), Fact: fact}, {Fn: method("Inner", "Create"), Fact: fact}},
	})
	caller := Canon(p.Fset, &callgraph.Summary{Open: []callgraph.OpenGroup{{Method: create, Recv: iface(lookup("Store")), Pos: []token.Pos{pos}}}})
	outside := func(from, to string) bool { return from == to && from == "caller" }
	links := Link([]Package{{ID: "caller", Summary: caller}, {ID: "p", Summary: impl}}, outside)
	at := At{"caller", Pos(p.Fset, pos)}
	var got []string
	for _, l := range links[at] {
		got = append(got, l.Name)
	}
	if want := []string{"(*p.Inner).Create", "(*p.byPointer).Create"}; !slices.Equal(got, want) || len(links) != 1 {
		t.Errorf("links %v: at %s %q, want %q", links, at, got, want)
	}
	// Inside the caller's cone, nothing is linked: the package's own analysis saw it.
	inside := func(from, to string) bool { return true }
	if links := Link([]Package{{ID: "caller", Summary: caller}, {ID: "p", Summary: impl}}, inside); len(links) != 0 {
		t.Errorf("links inside the cone: %v", links)
	}
}

// A summary survives JSON, facts included: the cache stores it so.
func TestSummaryJSON(t *testing.T) {
	p, lookup := checked(t)
	fact := &effect.Fact{Effects: effect.Set{{Kind: effect.SQLWrite, State: effect.Unprotected, Detail: "INSERT"}}}
	fn, _, _ := types.LookupFieldOrMethod(types.NewPointer(lookup("byPointer").Type()), true, p.Pkg, "Create")
	sum := Canon(p.Fset, &callgraph.Summary{
		Converted:  []*types.Named{lookup("byPointer").Type().(*types.Named)},
		Methods:    []callgraph.FuncFact{{Fn: fn.(*types.Func), Fact: fact}},
		CheckCalls: []callgraph.CheckCall{{Caller: "F", Callee: "stripe.Check", HTTP: true}},
	})
	data, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	var back Summary
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, sum) {
		t.Errorf("after JSON:\n%+v\nwant\n%+v", back, *sum)
	}
}

// A type declared inside a function is told apart from a package-level one of its name.
func TestCanonLocalTypes(t *testing.T) {
	p, lookup := checked(t)
	var local types.Type
	for id, obj := range p.Info.Defs {
		if id.Name == "Order" && obj != nil && obj.Parent() != p.Pkg.Scope() {
			local = obj.Type()
		}
	}
	if local == nil {
		t.Fatal("no local Order")
	}
	w := &writer{fset: p.Fset}
	if a, b := w.typ(local), w.typ(lookup("Order").Type()); a == b {
		t.Errorf("local and package-level Order are both %q", a)
	}
}

// A package links to the program's packages, a test variant to those of its test binary:
// the variant of a package it replaces, the others as they are.
func TestLinkTestVariants(t *testing.T) {
	p, lookup := checked(t)
	fn, _, _ := types.LookupFieldOrMethod(types.NewPointer(lookup("byPointer").Type()), true, p.Pkg, "Create")
	impl := func(detail string) *Summary {
		fact := &effect.Fact{Effects: effect.Set{{Kind: effect.SQLWrite, State: effect.Unprotected, Detail: detail}}}
		return Canon(p.Fset, &callgraph.Summary{
			Converted: []*types.Named{lookup("byPointer").Type().(*types.Named)},
			Methods:   []callgraph.FuncFact{{Fn: fn.(*types.Func), Fact: fact}},
		})
	}
	create := iface(lookup("Store")).Method(0)
	caller := Canon(p.Fset, &callgraph.Summary{Open: []callgraph.OpenGroup{{Method: create, Recv: iface(lookup("Store")), Pos: []token.Pos{p.File.Package}}}})
	pkgs := []Package{
		{ID: "q", Summary: caller},
		{ID: "q [impl.test]", Summary: caller},
		{ID: "impl", Summary: impl("as built")},
		{ID: "impl [impl.test]", Summary: impl("as tested")},
	}
	links := Link(pkgs, func(from, to string) bool { return false })
	pos := Pos(p.Fset, p.File.Package)
	for caller, want := range map[string]string{"q": "as built", "q [impl.test]": "as tested"} {
		l := links[At{caller, pos}]
		if len(l) != 1 || l[0].Fact.Effects[0].Detail != want {
			t.Errorf("%s links to %+v, want the implementation %s", caller, l, want)
		}
	}
}

// Registered keeps the functions of reported packages, once per registration, in position
// order; a function of a package whose findings are not reported stays with its registering
// package (not handed over).
func TestRegistered(t *testing.T) {
	reg := func(fn, pkg, at string) callgraph.Registration {
		return callgraph.Registration{Func: fn, Pkg: pkg, Framework: "asynq", At: at}
	}
	send := "(*example.com/tasks.H).Send"
	pkgs := []Package{
		{ID: "example.com/cmd/b", Summary: &Summary{Registered: []callgraph.Registration{reg(send, "example.com/tasks", "b/main.go:9:3")}}},
		{ID: "example.com/cmd/a", Summary: &Summary{Registered: []callgraph.Registration{
			reg(send, "example.com/tasks", "a/main.go:7:3"),
			reg(send, "example.com/tasks", "a/main.go:7:3"), // the package's test variant
			reg("example.com/lib.Run", "example.com/lib", "a/main.go:8:3"),
		}}},
	}
	got := Registered(pkgs, func(path string) bool { return path == "example.com/tasks" })
	want := map[string][]callgraph.Registration{send: {reg(send, "example.com/tasks", "a/main.go:7:3"), reg(send, "example.com/tasks", "b/main.go:9:3")}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Registered:\n got %+v\nwant %+v", got, want)
	}
	if got := Registered(pkgs, func(string) bool { return false }); got != nil {
		t.Errorf("nothing reported: %+v, want nil", got)
	}
}

// TestConsumersOpenCalls: a consumer its package could not call safe only for a call of
// an interface it left open is safe when the types the program converts to that interface
// are safe to repeat under the method: no effects, or only protected ones. An unprotected
// effect, a method that calls what its caller passes, or no converted type that implements
// the interface keep it unsafe.
func TestConsumersOpenCalls(t *testing.T) {
	p, lookup := checked(t)
	method := func(typ, name string) *types.Func {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(lookup(typ).Type()), true, p.Pkg, name)
		return obj.(*types.Func)
	}
	store := iface(lookup("Store"))
	open := OpenCallOf(p.Fset, callgraph.OpenCall{Kind: callgraph.OpenInterface, Method: store.Method(0), Recv: store})
	caller := Canon(p.Fset, &callgraph.Summary{
		Open: []callgraph.OpenGroup{{Method: store.Method(0), Recv: store, Pos: []token.Pos{p.File.Package}}},
		Consumers: []topics.Consumer{{Library: "river", Topic: "p.Args", Handler: "(*W).Work", At: "w.go:1:1",
			Why: "it calls (p.Store).Create, whose implementation is not known", Open: []topics.OpenCall{open}}},
	})
	state := func(s effect.State) *effect.Fact {
		return &effect.Fact{Effects: effect.Set{{Kind: effect.SQLWrite, State: s}}}
	}
	for _, c := range []struct {
		name      string
		converted []string
		fact      *effect.Fact // of (*byPointer).Create; nil: no effects
		safe      bool
	}{
		{"no effects", []string{"byPointer"}, nil, true},
		{"protected effects", []string{"byPointer"}, state(effect.Protected), true},
		{"an unprotected effect", []string{"byPointer"}, state(effect.Unprotected), false},
		{"calls its caller's function", []string{"byPointer"}, &effect.Fact{Calls: 1}, false},
		{"nothing converted implements it", []string{"wrong"}, nil, false},
	} {
		var converted []*types.Named
		for _, name := range c.converted {
			converted = append(converted, lookup(name).Type().(*types.Named))
		}
		impl := &callgraph.Summary{Converted: converted}
		if c.fact != nil {
			impl.Methods = []callgraph.FuncFact{{Fn: method("byPointer", "Create"), Fact: c.fact}}
		}
		tb, _ := Consumers([]Package{{ID: "caller", Summary: caller}, {ID: "p", Summary: Canon(p.Fset, impl)}})
		if len(tb) != 1 || tb[0].Safe != c.safe || (tb[0].Why == "") != c.safe {
			t.Errorf("%s: consumers %+v, want safe %v", c.name, tb, c.safe)
		}
	}
}

// Package link resolves the open interface calls of a whole program: a handler that calls
// h.Orders.Create(ctx, o) on an interface whose implementation lives in a package the
// handler's package never imports (wired in main, or by a container) reaches that
// implementation's effects. Each package's analysis summarises its open calls, its methods
// with effects and the types it converts to interfaces (callgraph.Summary); Link matches
// them once every package is analysed, and the driver analyses again with the links.
//
// Rapid type analysis's rule keeps the link precise: an interface call reaches a method of
// a type only when the program converts that type (or a pointer to it) to an interface
// somewhere, and the type implements the static type of the call's receiver.
package link

import (
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/routes"
	"github.com/chokaq/idemlint/internal/topics"
)

// Package is one analysed package (its ID, as go/packages names it: a test variant has its
// own, "p [p.test]") and its summary.
type Package struct {
	ID      string
	Summary *Summary
}

// At is an open call of a package: the package's ID and the call's "file:offset" (Pos). A
// file of a package and of its test variant holds the same calls, which may link apart.
type At struct{ Package, Pos string }

// Links are the implementations each open call may run; the driver turns them into the
// callgraph.Links of the packages it analyses.
type Links map[At][]callgraph.Linked

// Cone reports whether a package of path to is in the import cone of the package of ID
// from: from itself, or a package it imports, directly or not (a test variant's cone holds
// what its test files import too; the package's own does not).
type Cone func(from, to string) bool

// Link returns, for each open interface call of the program, the implementations outside
// the calling package's import cone that it may run (those inside were resolved by the
// package's own analysis): the methods with effects, or that register a parameter, that a
// type converted to an interface somewhere, and implementing the call's receiver type, has
// under the method's name (declared on it, or promoted from a field it embeds).
//
// The program's packages link among themselves; the test variants of one test binary
// ("p [p.test]", "p_test [p.test]") among themselves and the packages they do not replace,
// as that binary is built.
func Link(pkgs []Package, inCone Cone) Links {
	var plain []Package
	variants := map[string][]Package{} // by test binary
	for _, p := range pkgs {
		if _, bin, ok := testVariant(p.ID); ok {
			variants[bin] = append(variants[bin], p)
		} else {
			plain = append(plain, p)
		}
	}
	links := Links{}
	linkAmong(links, plain, plain, inCone)
	for _, vs := range variants {
		replaced := map[string]bool{}
		for _, v := range vs {
			path, _, _ := testVariant(v.ID)
			replaced[path] = true
		}
		candidates := slices.Clone(vs)
		for _, p := range plain {
			if !replaced[p.ID] {
				candidates = append(candidates, p)
			}
		}
		linkAmong(links, vs, candidates, inCone)
	}
	return links
}

// testVariant splits a test variant's ID, "p [p.test]", into the package's path and its
// test binary's.
func testVariant(id string) (path, binary string, ok bool) {
	i := strings.Index(id, " [")
	if i < 0 || !strings.HasSuffix(id, "]") {
		return id, "", false
	}
	return id[:i], id[i+2 : len(id)-1], true
}

// linkAmong links the open calls of callers to the implementations of candidates.
func linkAmong(links Links, callers, candidates []Package, inCone Cone) {
	methods := map[string]*effect.Fact{}
	var converted []*Type
	seen := map[string]bool{}
	for _, p := range candidates {
		for _, m := range p.Summary.Methods {
			methods[m.ID] = m.Fact
		}
		for i, t := range p.Summary.Converted {
			if !seen[t.Key] && !t.Generic {
				seen[t.Key] = true
				converted = append(converted, &p.Summary.Converted[i])
			}
		}
	}
	withEffects := map[string]bool{}
	for id := range methods {
		withEffects[id[strings.LastIndexByte(id, '.')+1:]] = true
	}
	byName := methodSets(converted, withEffects)
	impl := implementsMemo{}
	for _, p := range callers {
		for _, o := range p.Summary.Open {
			if l := resolve(o, p.Summary.recv(o), byName[shortName(o.Method)], methods, impl, func(pkg string) bool { return inCone(p.ID, pkg) }); len(l) > 0 {
				for _, pos := range o.Pos {
					links[At{p.ID, pos}] = l
				}
			}
		}
	}
}

// candidate is a converted type, or a pointer to it.
type candidate struct {
	t       *Type
	pointer bool
}

// members is the candidate's method set.
func (c candidate) has(m Member) bool {
	if c.pointer {
		return slices.ContainsFunc(c.t.Pointer, func(i Impl) bool { return i.Member == m })
	}
	return slices.Contains(c.t.Value, m)
}

// methodSets indexes the converted types (and pointers to them) by the names of their
// methods, for the names some method with effects has (err.Error() calls are everywhere;
// an Error method with effects is rare).
func methodSets(converted []*Type, names map[string]bool) map[string][]candidate {
	byName := map[string][]candidate{}
	for _, t := range converted {
		for _, c := range []candidate{{t, false}, {t, true}} {
			var ms []string
			if c.pointer {
				for _, i := range t.Pointer {
					ms = append(ms, i.Name)
				}
			} else {
				for _, m := range t.Value {
					ms = append(ms, m.Name)
				}
			}
			for _, m := range ms {
				if name := shortName(m); names[name] {
					byName[name] = append(byName[name], c)
				}
			}
		}
	}
	return byName
}

// shortName is a name key's method name, without the package of an unexported one.
func shortName(key string) string {
	return key[strings.LastIndexByte(key, '.')+1:]
}

// implementsMemo caches whether a candidate implements an interface, by the interface's
// string.
type implementsMemo map[implKey]bool

type implKey struct {
	c     candidate
	iface string
}

// implements reports whether c's method set has every method of iface.
func (m implementsMemo) implements(c candidate, iface Interface) bool {
	k := implKey{c, iface.Key}
	if v, ok := m[k]; ok {
		return v
	}
	v := true
	for _, im := range iface.Methods {
		if !c.has(im) {
			v = false
			break
		}
	}
	m[k] = v
	return v
}

// resolve returns the implementations with effects, outside the caller's cone, that call o
// may run among the candidate types, sorted by name.
func resolve(o Open, recv Interface, candidates []candidate, methods map[string]*effect.Fact, impl implementsMemo, inCone func(string) bool) []callgraph.Linked {
	var out []callgraph.Linked
	done := map[string]bool{}
	for _, c := range candidates {
		if !impl.implements(c, recv) {
			continue
		}
		i := slices.IndexFunc(c.t.Pointer, func(i Impl) bool { return i.Name == o.Method })
		if i < 0 {
			continue
		}
		fn := c.t.Pointer[i]
		fact := methods[fn.ID]
		if fact == nil || done[fn.ID] || inCone(fn.Pkg) {
			continue
		}
		done[fn.ID] = true
		out = append(out, callgraph.Linked{Name: fn.Hop, Fact: fact})
	}
	slices.SortFunc(out, func(a, b callgraph.Linked) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// TakenOver returns the functions (full names) that check a webhook and are not the
// deliveries' handlers: an HTTP handler (or a function one reaches) of another package
// calls them, or a function taken over in turn does (a service method calling a client's
// ParseNotify, called by a gin handler), to a fixpoint.
func TakenOver(pkgs []Package) map[string]bool {
	var calls []callgraph.CheckCall
	for _, p := range pkgs {
		calls = append(calls, p.Summary.CheckCalls...)
	}
	taken := map[string]bool{}
	for changed := true; changed; {
		changed = false
		for _, c := range calls {
			if !taken[c.Callee] && (c.HTTP || (c.Caller != "" && taken[c.Caller])) {
				taken[c.Callee] = true
				changed = true
			}
		}
	}
	return taken
}

// Equal reports whether two link sets resolve every call to the same implementations with
// the same effects: then analysing again would change nothing.
func Equal(a, b Links) bool {
	if len(a) != len(b) {
		return false
	}
	for pos, la := range a {
		lb, ok := b[pos]
		if !ok || len(la) != len(lb) {
			return false
		}
		for i := range la {
			if la[i].Name != lb[i].Name || !la[i].Fact.Effects.Equal(lb[i].Fact.Effects) || la[i].Fact.CompletesInTx != lb[i].Fact.CompletesInTx ||
				!slices.Equal(la[i].Fact.Registers, lb[i].Fact.Registers) {
				return false
			}
		}
	}
	return true
}

// Implementations answers whether some type the program converts to an interface (or a
// pointer to one) implements an interface: the inventory's judgement of an interface call
// a handler's package resolved to nothing.
type Implementations struct {
	candidates []candidate
	memo       map[string]bool
	impl       implementsMemo
}

// NewImplementations collects the converted types of the packages' summaries.
func NewImplementations(pkgs []Package) *Implementations {
	im := &Implementations{memo: map[string]bool{}, impl: implementsMemo{}}
	seen := map[string]bool{}
	for _, p := range pkgs {
		for i, t := range p.Summary.Converted {
			if !seen[t.Key] {
				seen[t.Key] = true
				im.candidates = append(im.candidates, candidate{&p.Summary.Converted[i], false}, candidate{&p.Summary.Converted[i], true})
			}
		}
	}
	return im
}

// Any reports whether a converted type implements iface.
func (im *Implementations) Any(iface Interface) bool {
	if v, ok := im.memo[iface.Key]; ok {
		return v
	}
	v := slices.ContainsFunc(im.candidates, func(c candidate) bool { return im.impl.implements(c, iface) })
	im.memo[iface.Key] = v
	return v
}

// Registered returns, by function (full name), the registrations of functions of reported
// packages (reported answers by package path) that other packages register as handlers
// where their own package cannot know they are (callgraph.Summary.Registered). Each such
// function's own package then judges it as one of its handlers, and the packages that
// register it no longer report it at the registration. A function of a package not
// reported (outside the patterns, or not analysed) keeps its finding at the registration,
// the only place the run shows.
func Registered(pkgs []Package, reported func(path string) bool) map[string][]callgraph.Registration {
	var out map[string][]callgraph.Registration
	for _, p := range pkgs {
		for _, r := range p.Summary.Registered {
			if !reported(r.Pkg) {
				continue
			}
			if out == nil {
				out = map[string][]callgraph.Registration{}
			}
			if !slices.Contains(out[r.Func], r) {
				out[r.Func] = append(out[r.Func], r)
			}
		}
	}
	for _, rs := range out {
		slices.SortFunc(rs, func(a, b callgraph.Registration) int { return strings.Compare(a.At, b.At) })
	}
	return out
}

// Routes returns the routes every package serves, and whether a request one of them sends
// is served by some of them (routes.Table.Linked): only then does judging the program's
// requests by its routes change anything.
func Routes(pkgs []Package) (routes.Table, bool) {
	var all []routes.Route
	var sent []routes.Request
	for _, p := range pkgs {
		all = append(all, p.Summary.Routes...)
		sent = append(sent, p.Summary.Sent...)
	}
	tb := routes.Table(routes.Sort(all))
	return tb, tb.Linked(sent)
}

// Carriers returns the channel element types every package's receive loops hand
// deliveries on over, sorted by type, each once (the first package's framework, in the
// order of pkgs).
func Carriers(pkgs []Package) []callgraph.Carrier {
	seen := map[string]bool{}
	var out []callgraph.Carrier
	for _, p := range pkgs {
		for _, c := range p.Summary.Carriers {
			if !seen[c.Type] {
				seen[c.Type] = true
				out = append(out, c)
			}
		}
	}
	slices.SortFunc(out, func(a, b callgraph.Carrier) int { return strings.Compare(a.Type, b.Type) })
	return out
}

// Consumers returns the topics every package's handlers consume (where they are
// registered, or joined with their own package's verdict), and whether a message
// one of them publishes reaches some of them (topics.Table.Linked): only then does judging
// the program's publishes by its consumers change anything.
//
// A handler its package could not call safe only because it calls interfaces of the
// program's own with no implementation in that package's view (topics.Consumer.Open) is
// safe when the whole program answers each of those calls with methods that are safe to
// repeat (safeBehind): the link brings their effects to the handler's package in the next
// round, whose verdict would say the same one round later than the publish needs it.
func Consumers(pkgs []Package) (topics.Table, bool) {
	var all []topics.Consumer
	var subs []topics.Subscription
	var verdicts []topics.Verdict
	var sent []topics.Message
	behind := newSafeBehind(pkgs)
	for _, p := range pkgs {
		for _, c := range p.Summary.Consumers {
			if len(c.Open) > 0 && behind.all(p.Summary, c.Open) {
				c.Safe, c.Why, c.Open = true, "", nil
			}
			all = append(all, c)
		}
		for _, v := range p.Summary.Verdicts {
			if len(v.Open) > 0 && behind.all(p.Summary, v.Open) {
				v.Safe, v.Why, v.Open = true, "", nil
			}
			verdicts = append(verdicts, v)
		}
		subs = append(subs, p.Summary.Subscriptions...)
		sent = append(sent, p.Summary.Published...)
	}
	tb := topics.Table(topics.Sort(append(all, topics.Join(subs, verdicts)...)))
	return tb, tb.Linked(sent)
}

// safeBehind answers whether the program runs only methods safe to repeat behind an open
// interface call: the types it converts to interfaces, and the facts of every package's
// methods with effects.
type safeBehind struct {
	*Implementations
	facts map[string]*effect.Fact
}

func newSafeBehind(pkgs []Package) safeBehind {
	f := safeBehind{NewImplementations(pkgs), map[string]*effect.Fact{}}
	for _, p := range pkgs {
		for _, m := range p.Summary.Methods {
			f.facts[m.ID] = m.Fact
		}
	}
	return f
}

// safeFact reports whether a method with that fact is safe to repeat whatever its caller
// passes: its effects are protected or claimed, and it calls and registers none of its
// parameters (whose effects are the caller's arguments').
func safeFact(f *effect.Fact) bool {
	return f.Calls == 0 && len(f.Registers) == 0 &&
		!slices.ContainsFunc(f.Effects, func(e effect.Effect) bool { return e.State < effect.Claimed })
}

// all reports whether every one of calls, open in the package of summary s, is answered by
// converted types, at least one each, whose method of that name has no effects, or only
// effects that are protected or claimed.
func (f safeBehind) all(s *Summary, calls []topics.OpenCall) bool {
	for _, o := range calls {
		methods, ok := s.Interfaces[o.Recv]
		if !ok {
			return false
		}
		iface := Interface{Key: o.Recv, Methods: methods}
		some := false
		for _, c := range f.candidates {
			if !f.impl.implements(c, iface) {
				continue
			}
			i := slices.IndexFunc(c.t.Pointer, func(i Impl) bool { return i.Name == o.Method })
			if i < 0 {
				continue
			}
			if fact := f.facts[c.t.Pointer[i].ID]; fact != nil && !safeFact(fact) {
				return false
			}
			some = true
		}
		if !some {
			return false
		}
	}
	return true
}

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
	"go/types"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/effect"
)

// Package is one analysed package and its summary.
type Package struct {
	Types   *types.Package
	Summary *callgraph.Summary
}

// Link returns, for each open interface call of the program, the implementations outside
// the calling package's import cone that it may run (those inside were resolved by the
// package's own analysis): the methods with effects, or that register a parameter, that a type converted to an interface
// somewhere, and implementing the call's receiver type, has under the method's name
// (declared on it, or promoted from a field it embeds).
func Link(pkgs []Package) callgraph.Links {
	methods := map[*types.Func]*effect.Fact{}
	var converted []*types.Named
	seen := map[*types.Named]bool{}
	for _, p := range pkgs {
		for _, m := range p.Summary.Methods {
			methods[m.Fn.Origin()] = m.Fact
		}
		for _, t := range p.Summary.Converted {
			if !seen[t] && t.TypeParams().Len() == 0 {
				seen[t] = true
				converted = append(converted, t)
			}
		}
	}
	withEffects := map[string]bool{}
	for fn := range methods {
		withEffects[fn.Name()] = true
	}
	byName := methodSets(converted, withEffects)
	links := callgraph.Links{}
	cones := map[*types.Package]map[*types.Package]bool{}
	for _, p := range pkgs {
		for _, o := range p.Summary.Open {
			cone, ok := cones[p.Types]
			if !ok {
				cone = coneOf(p.Types)
				cones[p.Types] = cone
			}
			if l := resolve(o, byName[o.Method.Name()], methods, cone); len(l) > 0 {
				for _, pos := range o.Pos {
					links[pos] = l
				}
			}
		}
	}
	return links
}

// methodSets indexes the converted types (and pointers to them) by the names of their
// methods, for the names some method with effects has (err.Error() calls are everywhere;
// an Error method with effects is rare).
func methodSets(converted []*types.Named, names map[string]bool) map[string][]types.Type {
	byName := map[string][]types.Type{}
	for _, n := range converted {
		for _, t := range []types.Type{n, types.NewPointer(n)} {
			ms := types.NewMethodSet(t)
			for i := 0; i < ms.Len(); i++ {
				if name := ms.At(i).Obj().Name(); names[name] {
					byName[name] = append(byName[name], t)
				}
			}
		}
	}
	return byName
}

// resolve returns the implementations with effects, outside cone, that call o may run among
// the candidate types, sorted by name.
func resolve(o callgraph.OpenGroup, candidates []types.Type, methods map[*types.Func]*effect.Fact, cone map[*types.Package]bool) []callgraph.Linked {
	var out []callgraph.Linked
	done := map[*types.Func]bool{}
	for _, t := range candidates {
		if !types.Implements(t, o.Recv) {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, o.Method.Pkg(), o.Method.Name())
		fn, ok := obj.(*types.Func)
		if !ok {
			continue
		}
		fn = fn.Origin()
		fact := methods[fn]
		if fact == nil || done[fn] || cone[fn.Pkg()] {
			continue
		}
		done[fn] = true
		out = append(out, callgraph.Linked{Name: effect.FuncName(fn, nil), Fact: fact})
	}
	slices.SortFunc(out, func(a, b callgraph.Linked) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// coneOf returns pkg and every package it imports, directly or not.
func coneOf(pkg *types.Package) map[*types.Package]bool {
	cone := map[*types.Package]bool{}
	var walk func(p *types.Package)
	walk = func(p *types.Package) {
		if cone[p] {
			return
		}
		cone[p] = true
		for _, imp := range p.Imports() {
			walk(imp)
		}
	}
	walk(pkg)
	return cone
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
func Equal(a, b callgraph.Links) bool {
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

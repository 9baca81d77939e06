package callgraph

import (
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
)

// Solve propagates effects from callees to callers until nothing changes, then evaluates
// once more to learn which directives silenced something. Each node keeps, per kind, the
// worst state and the shortest chain to it; both only move one way (worse, shorter), so
// the loop ends, cycles and recursion included.
func (g *Graph) Solve() {
	for changed := true; changed; {
		changed = false
		for _, n := range g.Nodes {
			if g.evaluate(n, false) {
				changed = true
			}
		}
	}
	for _, n := range g.Nodes {
		g.evaluate(n, true)
	}
}

// evaluate recomputes n's effects from its sites. With record set it notes the directives
// that silenced something, which is only meaningful once the effects are final.
func (g *Graph) evaluate(n *Node, record bool) bool {
	g.visit(n)
	var raw effect.Set
	from := map[effect.Kind]Origin{}
	completes := n.completesHere
	for i := range n.Sites {
		s := &n.Sites[i]
		if s.regional && n.region == nil {
			continue // a receive region's, not the node's (markRegional)
		}
		var in effect.Set
		var via *Node
		switch {
		case s.sink != nil:
			in = effect.Set{*s.sink}
		case s.local != nil:
			via = s.local
			in = s.local.Effects
			completes = completes || s.local.TxCompletion
		case s.fact != nil:
			in = s.fact.Effects
			completes = completes || s.fact.CompletesInTx
		}
		for _, e := range in {
			if g.ignored(n.File.IgnoresAt(s.line), e, record) {
				continue
			}
			e, keep := g.through(n, s, e)
			if keep && raw.Add(e) {
				from[e.Kind] = Origin{Pos: s.Pos, Via: via}
			}
		}
	}
	effects := raw
	if n.Barrier != nil || len(n.Ignores) > 0 {
		effects = nil
		for _, e := range raw {
			if n.Barrier != nil {
				if record && e.State != effect.Protected {
					g.use(n.Barrier)
				}
				continue
			}
			if g.ignored(n.Ignores, e, record) {
				continue
			}
			effects = append(effects, e)
		}
	}
	changed := !effects.Equal(n.Effects) || completes != n.TxCompletion
	n.Effects, n.From, n.TxCompletion = effects, from, completes
	return changed
}

// through returns effect e of a site as n sees it: the caller's arguments decide a method
// or key taken from the callee's parameters, the hop is prepended, and a gate or generated
// guard before the call applies. It reports whether the effect is kept.
func (g *Graph) through(n *Node, s *Site, e effect.Effect) (effect.Effect, bool) {
	if !s.inline && s.sink == nil {
		if e.MethodParam != 0 {
			var keep bool
			if e, keep = g.in.Judge.PassMethod(s.args, e, n.scope); !keep {
				return e, false
			}
		}
		if e.KeyParams != 0 {
			e = g.in.Judge.PassKey(s.args, s.callee, e, n.scope)
		}
		if e.TextParam != 0 {
			var keep bool
			if e, keep = g.in.Judge.PassText(s.args, e, n.scope); !keep {
				return e, false
			}
		}
		if s.value != "" {
			// A callback the callee calls: the hop to it is inside the callee.
			e = e.Prepend(s.value, "")
		}
		e = e.Prepend(s.callee, effect.ShortPos(g.in.Fset, s.Pos))
	}
	for _, gt := range s.gates {
		e = gt.Guard(e)
	}
	if s.guard != "" && e.Kind == s.guard && e.State != effect.Protected {
		// The write the generated call reaches is an upsert (its conflict options come
		// from the guard in the chain): a repeat converges.
		e.State, e.Detail = effect.Protected, "write with conflict handling ("+s.guardBy+" in the chain)"
	}
	return e, true
}

// ignored reports whether one of ds silences e; with record, it notes the directive used
// when e is a finding (a protected effect needs no silencing).
func (g *Graph) ignored(ds []*directive.Directive, e effect.Effect, record bool) bool {
	d := silencer(ds, e)
	if d != nil && record && e.State != effect.Protected {
		g.use(d)
	}
	return d != nil
}

// silencer returns the first of ds that silences e, or nil.
func silencer(ds []*directive.Directive, e effect.Effect) *directive.Directive {
	for _, d := range ds {
		if d.Names(string(e.Kind)) {
			return d
		}
	}
	return nil
}

// use notes that directive d silenced a finding.
func (g *Graph) use(d *directive.Directive) {
	if !g.usedSet[d] {
		if g.usedSet == nil {
			g.usedSet = map[*directive.Directive]bool{}
		}
		g.usedSet[d] = true
		g.used = append(g.used, d)
	}
}

// Used returns the directives (//idemlint:ignore, //idemlint:idempotent) that silenced a
// finding so far: in Solve, and in the nodes made after it for handlers (Region,
// Dispatched), in the order they were first used.
func (g *Graph) Used() []*directive.Directive { return g.used }

// FuncFact is a function of the package with its solved effects.
type FuncFact struct {
	Fn   *types.Func
	Fact *effect.Fact
}

// Facts returns each declared function's effects, and the parameters it calls, for
// importing packages. An unexported function that is not a method gets none: no other
// package can call it (a reference to it here counts as a call here, so what it does
// reaches importers through the exported function that hands it out), and facts travel
// with every importer.
func (g *Graph) Facts() []FuncFact {
	return g.funcFacts(func(fn *types.Func) bool { return fn.Exported() || fn.Signature().Recv() != nil }, true)
}

// Methods returns the package's methods that have effects, exported or not: an interface
// call can reach either, for a program-wide link.
func (g *Graph) Methods() []FuncFact {
	return g.funcFacts(func(fn *types.Func) bool { return fn.Signature().Recv() != nil }, false)
}

// funcFacts returns the facts of the functions keep selects that have effects (or, with
// calls, call a parameter).
func (g *Graph) funcFacts(keep func(*types.Func) bool, withCalls bool) []FuncFact {
	var out []FuncFact
	for _, n := range g.Nodes {
		var calls uint64
		if withCalls {
			calls = n.Calls
		}
		if n.Fn == nil || !keep(n.Fn) {
			continue
		}
		claim := g.ClaimOf(n.Fn)
		receives := g.helpers[n] // set while resolving the function's own receive call
		if len(n.Effects) == 0 && !n.TxCompletion && calls == 0 && claim == nil && receives == "" {
			continue
		}
		out = append(out, FuncFact{n.Fn, &effect.Fact{Effects: append(effect.Set(nil), n.Effects...), CompletesInTx: n.TxCompletion, Calls: calls, Claim: claim, Receives: receives}})
	}
	return out
}

// Summary is what a program-wide link needs of one package: its open interface calls, its
// methods with effects, and the types it converts to interfaces. It holds no node, so the
// package's graph is not kept alive by a driver that keeps every package's result.
type Summary struct {
	Open      []OpenGroup
	Methods   []FuncFact
	Converted []*types.Named
	// CheckCalls are the package's calls of functions of other packages that check a
	// webhook (filled by the caller: handlers.CheckCalls).
	CheckCalls []CheckCall
}

// CheckCall is a call of a function of another package that checks a webhook (Callee, a
// full name) by a function of this package (Caller; "" for a literal). HTTP says that the
// caller is an HTTP handler or one reaches it in the package: the callee is then not the
// delivery's handler, nor are the callees of a caller taken over in turn.
type CheckCall struct {
	Caller, Callee string
	HTTP           bool
}

// OpenGroup is the package's open interface calls of one method on one receiver type: a
// link resolves them once, and a summary holds a position per call, not a call.
type OpenGroup struct {
	Method *types.Func
	Recv   *types.Interface
	Pos    []token.Pos
}

// Summary returns the package's open interface calls, grouped by method and receiver type,
// and its methods with effects; Converted is for the caller to fill (Conversions).
func (g *Graph) Summary() *Summary {
	type key struct {
		m *types.Func
		r *types.Interface
	}
	index := map[key]int{}
	var open []OpenGroup
	for _, o := range g.Open {
		if o.Kind != OpenInterface || o.Recv == nil {
			continue
		}
		k := key{o.Method, o.Recv}
		i, ok := index[k]
		if !ok {
			i = len(open)
			index[k] = i
			open = append(open, OpenGroup{Method: o.Method, Recv: o.Recv})
		}
		open[i].Pos = append(open[i].Pos, o.Pos)
	}
	return &Summary{Open: open, Methods: g.Methods()}
}

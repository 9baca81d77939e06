package analyzer

import (
	"go/token"
	"path/filepath"
	"strconv"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
)

// solve propagates effects from callees to callers until nothing changes. Each node keeps,
// per kind, the worst state and the shortest chain to it; both only move one way (worse,
// shorter), so the loop ends, cycles and recursion included.
func (a *analysis_) solve() {
	for changed := true; changed; {
		changed = false
		for _, n := range a.nodes {
			if a.evaluate(n, false) {
				changed = true
			}
		}
	}
}

// evaluate recomputes n's effects from its sites. With record set it marks the directives
// that silenced something, which is only meaningful once the effects are final.
func (a *analysis_) evaluate(n *node, record bool) bool {
	a.current = n
	if testHookEvaluate != nil {
		testHookEvaluate(n.name)
	}
	var raw effect.Set
	from := map[effect.Kind]origin{}
	add := func(e effect.Effect, o origin) {
		if raw.Add(e) {
			from[e.Kind] = o
		}
	}
	completes := n.completesHere
	for i := range n.sites {
		s := &n.sites[i]
		var in effect.Set
		var via *node
		switch {
		case s.sink != nil:
			in = effect.Set{*s.sink}
		case s.local != nil:
			via = s.local
			in = s.local.effects
			completes = completes || s.local.txCompletion
		case s.fact != nil:
			in = s.fact.Effects
			completes = completes || s.fact.CompletesInTx
		}
		for _, e := range in {
			if ignored(n.file.IgnoresAt(s.line), e, record) {
				continue
			}
			if !s.inline && s.sink == nil {
				if e.MethodParam != 0 {
					var keep bool
					if e, keep = a.passMethod(s, e); !keep {
						continue
					}
				}
				if e.KeyParams != 0 {
					e = a.passKey(s, e)
				}
				e = e.Prepend(s.callee, a.shortPos(s.pos))
			}
			if s.gate != nil {
				e = s.gate.guard(e)
			}
			if s.guard != "" && e.Kind == s.guard && e.State != effect.Protected {
				// The write the generated call reaches is an upsert (its conflict options
				// come from the guard in the chain): a repeat converges.
				e.State, e.Detail = effect.Protected, "write with conflict handling ("+s.guardBy+" in the chain)"
			}
			add(e, origin{pos: s.pos, via: via})
		}
	}
	effects := raw
	if n.barrier != nil || len(n.ignores) > 0 {
		effects = nil
		for _, e := range raw {
			if n.barrier != nil {
				if record && e.State != effect.Protected {
					n.barrier.Used = true
				}
				continue
			}
			if ignored(n.ignores, e, record) {
				continue
			}
			effects = append(effects, e)
		}
	}
	changed := !effects.Equal(n.effects) || completes != n.txCompletion
	n.raw, n.effects, n.from, n.txCompletion = raw, effects, from, completes
	return changed
}

// ignored reports whether one of ds silences e; with record, it marks the directive used
// when e is a finding (a protected effect needs no silencing).
func ignored(ds []*directive.Directive, e effect.Effect, record bool) bool {
	for _, d := range ds {
		if d.Names(string(e.Kind)) {
			if record && e.State != effect.Protected {
				d.Used = true
			}
			return true
		}
	}
	return false
}

// markUsed runs one more evaluation over the final effects to learn which directives
// silenced something.
func (a *analysis_) markUsed() {
	for _, n := range a.nodes {
		a.evaluate(n, true)
	}
}

// shortPos renders pos as "file.go:line" for facts, which must not carry token.Pos.
func (a *analysis_) shortPos(pos token.Pos) string {
	p := a.pass.Fset.Position(pos)
	return filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

// exportFacts attaches each declared function's effects to it for importing packages. An
// unexported function that is not a method gets none: no other package can call it (a
// reference to it here counts as a call here, so what it does reaches importers through the
// exported function that hands it out), and facts travel with every importer.
func (a *analysis_) exportFacts() {
	for _, n := range a.nodes {
		if n.fn != nil && !n.fn.Exported() && n.fn.Signature().Recv() == nil {
			continue
		}
		if n.fn != nil && (len(n.effects) > 0 || n.txCompletion) {
			a.pass.ExportObjectFact(n.fn, &effect.Fact{Effects: append(effect.Set(nil), n.effects...), CompletesInTx: n.txCompletion})
		}
	}
}

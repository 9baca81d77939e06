package callgraph

import (
	"go/ast"
	"go/types"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks"
)

// solver propagates effects from callees to callers along the sites the builder resolved,
// and keeps the directives that silenced a finding. Reach and the nodes made after Solve
// (Graph.Region, Graph.Dispatched) apply what it applies, through the same methods.
type solver struct {
	*core
	// used are the directives that silenced a finding (use), in first-use order.
	used    []*directive.Directive
	usedSet map[*directive.Directive]bool
}

// solve propagates effects from callees to callers until nothing changes, then evaluates
// once more to learn which directives silenced something. Each node keeps, per kind, the
// worst state and the shortest chain to it; both only move one way (worse, shorter), so
// the loop ends, cycles and recursion included.
func (sv *solver) solve() {
	for changed := true; changed; {
		changed = false
		for _, n := range sv.Nodes {
			if sv.evaluate(n, false) {
				changed = true
			}
		}
	}
	for _, n := range sv.Nodes {
		sv.evaluate(n, true)
	}
}

// evaluate recomputes n's effects from its sites. With record set it notes the directives
// that silenced something, which is only meaningful once the effects are final.
func (sv *solver) evaluate(n *Node, record bool) bool {
	sv.visit(n)
	var raw effect.Set
	from := map[effect.Kind]Origin{}
	completes := n.completesHere
	claims := sv.insertClaims(n)
	for i := range n.Sites {
		s := &n.Sites[i]
		if s.dead || s.regional && n.region == nil {
			continue // a receive region's, not the node's (markRegional)
		}
		in := sv.siteEffects(s)
		var via *Node
		switch {
		case s.local != nil:
			via = s.local
			completes = completes || s.local.TxCompletion
		case s.fact != nil:
			completes = completes || s.fact.CompletesInTx
		}
		for _, e := range in {
			if sv.ignored(n.File.IgnoresAt(s.line), e, record) {
				continue
			}
			e, keep := sv.through(n, s, e)
			if keep && raw.Add(guardedBy(claims, s, e)) {
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
					sv.use(n.Barrier)
				}
				continue
			}
			if sv.ignored(n.Ignores, e, record) {
				continue
			}
			effects = append(effects, e)
		}
	}
	changed := !effects.Equal(n.Effects) || completes != n.TxCompletion
	n.Effects, n.From, n.TxCompletion = effects, from, completes
	return changed
}

// siteEffects returns the effects that enter through site s, before the site applies
// anything to them: its sink's, its local callee's, or its fact's.
func (sv *solver) siteEffects(s *Site) effect.Set {
	switch {
	case s.sink != nil:
		return effect.Set{*s.sink}
	case s.local != nil:
		return s.local.Effects
	case s.fact != nil:
		return s.fact.Effects
	}
	return nil
}

// through returns effect e of a site as n sees it: the caller's arguments decide a method,
// request or key taken from the callee's parameters, the hop is prepended, and a gate or generated
// guard before the call applies. It reports whether the effect is kept.
func (sv *solver) through(n *Node, s *Site, e effect.Effect) (effect.Effect, bool) {
	// A request whose body, URL or method the caller decides is what the caller makes of
	// it: the callee's name (query(ctx, doc)) then says nothing of what it does.
	callerMade := e.ReadsParam != 0 || e.PayloadParam != 0 || e.Conditional()
	if !s.inline && s.sink == nil {
		if e.MethodParam != 0 {
			var keep bool
			if e, keep = sv.in.Judge.PassMethod(s.args, e, n.scope); !keep {
				return e, false
			}
		}
		if e.KeyParams != 0 {
			e = sv.in.Judge.PassKey(s.args, s.callee, e, n.scope)
		}
		if e.OptsParam != 0 {
			// After PassKey: a key found among the caller's options is the caller's own
			// (its KeyParams name the caller's parameters, for its callers).
			e = sv.in.Judge.PassOptions(s.args, e, n.scope)
		}
		if e.ArgsParam != 0 {
			e = sv.in.Judge.PassArgs(s.args, e, n.scope)
		}
		if e.TopicParam != 0 {
			// After PassKey and PassOptions: a key the caller gives protects the publish
			// whatever its consumers do.
			e = sv.in.Judge.PassTopic(s.args, e, n.scope)
		}
		if e.ReadsParam != 0 || e.PayloadParam != 0 {
			// Before PassRequest, which asks its own body questions of the caller's
			// parameters, for the caller's callers.
			var keep bool
			if e, keep = sv.in.Judge.PassReads(s.args, e, n.scope); !keep {
				return e, false
			}
		}
		if e.RequestParam != 0 {
			// After PassKey: the caller's header, judged here, keys the effect by the
			// caller's own parameters.
			var keep bool
			if e, keep = sv.in.Judge.PassRequest(s.args, e, n.scope); !keep {
				return e, false
			}
		}
		if e.KeyArg != 0 {
			e = sv.in.Judge.PassKeyArg(s.args, s.callee, e, n.scope)
		}
		if e.ElemsParam != 0 {
			e = sv.passElems(n, s, e)
		}
		if e.TextParam != 0 {
			var keep bool
			if e, keep = sv.in.Judge.PassText(s.args, e, n.scope); !keep {
				return e, false
			}
		}
		if s.value != "" {
			// A callback the callee calls: the hop to it is inside the callee.
			e = e.Prepend(s.value, "")
		}
		e = e.Prepend(s.callee, effect.ShortPos(sv.in.Fset, s.Pos))
	}
	if s.dropped {
		// After the questions passed on: a caller's argument may still make the key anew.
		e = dropFailure(e, effect.ShortPos(sv.in.Fset, s.Pos))
	}
	if s.step > e.Step {
		e.Step = s.step // a recovery point records it: see effect.Effect.Step
	}
	if s.inline {
		e.ElemsParam = 0 // a literal's parameters: its callers' arguments are not in view
	}
	if !s.detached && (!s.tail || s.inline || s.failure != "") {
		// The caller goes on after the goroutine started: the delivery stays open while it
		// runs (before the gates, which guard it as what it then is). On a failure path the
		// call is judged as a report or a count below, whether or not it is the last act.
		e = unDetach(e)
	}
	// After unDetach: a report or bookkeeping the callee leaves to a goroutine is what it
	// is, whoever waits for it.
	if s.failure != "" {
		e = countFailure(e, s.failure)
		if s.reportsFailure {
			e = reportFailure(e, s.callee, s.failure)
		}
		if s.retriesDelivery {
			e = retryDelivery(e, s.callee, s.failure)
		}
	}
	if s.retryAfter != "" {
		e = retryDelivery(e, s.callee, s.retryAfter)
	}
	if s.deadLetter {
		e = setAside(e, s.callee)
	}
	if s.readName && !callerMade {
		e = readAside(e, s.callee)
	}
	for _, gt := range s.gates {
		e = gt.Guard(e)
	}
	if s.detached {
		e = detach(e)
	}
	if s.elems != 0 && e.ElemsParam == 0 && e.State < effect.Claimed {
		e.ElemsParam = s.elems
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
func (sv *solver) ignored(ds []*directive.Directive, e effect.Effect, record bool) bool {
	d := silencer(ds, e)
	if d != nil && record && e.State != effect.Protected {
		sv.use(d)
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
func (sv *solver) use(d *directive.Directive) {
	if !sv.usedSet[d] {
		if sv.usedSet == nil {
			sv.usedSet = map[*directive.Directive]bool{}
		}
		sv.usedSet[d] = true
		sv.used = append(sv.used, d)
	}
}

// passElems decides, at a call, an effect the callee makes per element of its parameter
// (e.ElemsParam): the caller's argument there is a local collection it fills only under a
// claim (the effect is claimed), its own parameter (the question is passed on), or anything
// else (the effect stays as it is).
func (sv *solver) passElems(n *Node, s *Site, e effect.Effect) effect.Effect {
	i := int(e.ElemsParam) - 1
	e.ElemsParam = 0
	if g := s.claimed[i]; g != nil {
		return g.Guard(e)
	}
	if i < len(s.args) {
		if id, ok := ast.Unparen(s.args[i]).(*ast.Ident); ok {
			if v, ok := sv.in.Info.Uses[id].(*types.Var); ok {
				e.ElemsParam = uint8(sinks.ParamIndex(n.scope, v))
			}
		}
	}
	return e
}

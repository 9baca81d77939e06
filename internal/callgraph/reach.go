package callgraph

import (
	"cmp"
	"go/token"
	"slices"

	"github.com/chokaq/idemlint/internal/effect"
)

// Reached is one sink of a kind that a node reaches, as the node sees it.
type Reached struct {
	Effect effect.Effect // its chain runs from the node (excluded) down to the sink
	// Pos is the sink call when it is in this package, else the call in this package of
	// the other package's function that reaches it: a position a diagnostic can name.
	Pos token.Pos
}

// SinkID identifies a sink by the last hop of a chain to it: the function called and
// where. Two chains with the same SinkID end in the same call.
func SinkID(e effect.Effect) string {
	if len(e.Chain) == 0 {
		return ""
	}
	last := e.Chain[len(e.Chain)-1]
	return last.Func + "@" + last.Pos
}

// reachBudget bounds the node visits of one Reach: the solved effects never depend on
// it, only the list of a handler's other sinks, which is cut when the budget runs out.
const reachBudget = 20000

// reach returns every sink of kind k that n reaches (Graph.Reach), as the solver sees it.
func reach(sv *solver, n *Node, k effect.Kind) []Reached {
	r := &reacher{sv: sv, kind: k, memo: map[*Node][]Reached{}, active: map[*Node]bool{}, budget: reachBudget}
	out, _ := r.of(n)
	return out
}

// reacher is the state of one Reach: results per node (kept only when complete: a node
// inside a cycle that is still being walked may miss what the cycle adds) and the nodes
// on the current path.
type reacher struct {
	sv     *solver // through and the directives: what Solve applies on the way
	kind   effect.Kind
	memo   map[*Node][]Reached
	active map[*Node]bool
	budget int
}

// of returns the sinks n reaches, after n's own directives, and whether the list is
// complete (no cycle cut it short, the budget did not run out).
func (r *reacher) of(n *Node) ([]Reached, bool) {
	if out, ok := r.memo[n]; ok {
		return out, true
	}
	if r.active[n] || r.budget <= 0 {
		return nil, false
	}
	r.budget--
	r.active[n] = true
	defer delete(r.active, n)
	if n.Barrier != nil || silencer(n.Ignores, effect.Effect{Kind: r.kind}) != nil {
		r.memo[n] = nil
		return nil, true
	}
	byID := map[string]Reached{}
	complete := true
	claims := r.sv.insertClaims(n)
	for i := range n.Sites {
		s := &n.Sites[i]
		if s.dead || s.regional && n.region == nil {
			continue
		}
		in, ok := r.site(s)
		complete = complete && ok
		for _, x := range in {
			if silencer(n.File.IgnoresAt(s.line), x.Effect) != nil {
				continue
			}
			e, keep := r.sv.through(n, s, x.Effect)
			if !keep {
				continue
			}
			e = guardedBy(claims, s, e)
			id := SinkID(e)
			if old, seen := byID[id]; !seen || e.Worse(old.Effect) {
				byID[id] = Reached{Effect: e, Pos: x.Pos}
			}
		}
	}
	out := make([]Reached, 0, len(byID))
	for _, x := range byID {
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b Reached) int {
		return cmp.Or(r.sv.comparePos(a.Pos, b.Pos), cmp.Compare(SinkID(a.Effect), SinkID(b.Effect)))
	})
	if complete {
		r.memo[n] = out
	}
	return out, complete
}

// site returns the effects of kind k that enter through s, before n's view of them.
func (r *reacher) site(s *Site) ([]Reached, bool) {
	switch {
	case s.sink != nil:
		if s.sink.Kind == r.kind {
			return []Reached{{Effect: *s.sink, Pos: s.Pos}}, true
		}
	case s.local != nil:
		return r.of(s.local)
	case s.fact != nil:
		if e, ok := s.fact.Effects.Get(r.kind); ok {
			return []Reached{{Effect: e, Pos: s.Pos}}, true
		}
	}
	return nil, true
}

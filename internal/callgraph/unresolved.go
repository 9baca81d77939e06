package callgraph

import (
	"go/token"
	"slices"
)

// unresolvedBudget bounds the nodes one Unresolved call visits; what it lists is for the
// inventory only, never for effects.
const unresolvedBudget = 5000

// openCalls indexes the open interface calls resolved to nothing by caller, built on the
// first unresolved call: the handlers ask only once the graph and their own nodes
// (Graph.Dispatched) are made, and Open no longer grows.
type openCalls struct {
	*core
	byCaller map[*Node][]OpenCall
	// values indexes the open function-value calls not followed by caller, built on the
	// first unfollowed call.
	values map[*Node][]OpenCall
}

// unresolved returns the interface calls n makes, itself or through the functions of this
// package it calls, that the analysis resolved to nothing (no implementation in view, no
// modelled sink, no link), by position. A driver that sees the whole program can tell
// which of them nothing in the program implements: there the handler's effects may be
// incomplete, and the inventory says so.
func (oc *openCalls) unresolved(n *Node) []OpenCall {
	if oc.byCaller == nil {
		oc.byCaller = map[*Node][]OpenCall{}
		for _, o := range oc.Open {
			if o.Kind == OpenInterface && !o.InView {
				oc.byCaller[o.Caller] = append(oc.byCaller[o.Caller], o)
			}
		}
	}
	byCaller := oc.byCaller
	if len(byCaller) == 0 {
		return nil
	}
	var out []OpenCall
	seen := map[*Node]bool{}
	stack := []*Node{n}
	for budget := unresolvedBudget; len(stack) > 0 && budget > 0; budget-- {
		m := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[m] {
			continue
		}
		seen[m] = true
		out = append(out, byCaller[m]...)
		if f := m.region; f != nil {
			// A receive loop: its function's open calls inside the loop.
			for _, o := range byCaller[f] {
				if o.Pos >= m.from && o.Pos < m.to {
					out = append(out, o)
				}
			}
		}
		for _, s := range m.Sites {
			if s.local != nil && !seen[s.local] {
				stack = append(stack, s.local)
			}
		}
	}
	slices.SortFunc(out, func(a, b OpenCall) int { return oc.comparePos(a.Pos, b.Pos) })
	return out
}

// unfollowed returns the names of the function values n's own body calls with nothing in
// view behind them (Graph.Unfollowed); a receive loop's are its function's inside the loop.
// Callees are not visited: a helper's call of its own parameter is followed at each of
// its callers, which pass the value.
func (oc *openCalls) unfollowed(n *Node) []string {
	caller, from, to := n, token.NoPos, token.NoPos
	if n.region != nil {
		caller, from, to = n.region, n.from, n.to
	}
	if oc.values == nil {
		oc.values = map[*Node][]OpenCall{}
		for _, o := range oc.Open {
			if o.Kind == OpenFuncValue && !o.InView {
				oc.values[o.Caller] = append(oc.values[o.Caller], o)
			}
		}
	}
	var out []string
	for _, o := range oc.values[caller] {
		if from.IsValid() && (o.Pos < from || o.Pos >= to) {
			continue
		}
		if !slices.Contains(out, o.Name) {
			out = append(out, o.Name)
		}
	}
	return out
}

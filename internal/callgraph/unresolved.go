package callgraph

import (
	"slices"
)

// unresolvedBudget bounds the nodes one Unresolved call visits; what it lists is for the
// inventory only, never for effects.
const unresolvedBudget = 5000

// Unresolved returns the interface calls n makes, itself or through the functions of this
// package it calls, that the analysis resolved to nothing (no implementation in view, no
// modelled sink, no link), by position. A driver that sees the whole program can tell
// which of them nothing in the program implements: there the handler's effects may be
// incomplete, and the inventory says so.
func (g *Graph) Unresolved(n *Node) []OpenCall {
	if g.unresolved == nil {
		g.unresolved = map[*Node][]OpenCall{}
		for _, o := range g.Open {
			if o.Kind == OpenInterface && !o.InView {
				g.unresolved[o.Caller] = append(g.unresolved[o.Caller], o)
			}
		}
	}
	byCaller := g.unresolved
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
	slices.SortFunc(out, func(a, b OpenCall) int { return g.comparePos(a.Pos, b.Pos) })
	return out
}

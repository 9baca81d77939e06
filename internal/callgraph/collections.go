package callgraph

// Collections filled under a claim (gates.Reader.ClaimedFill): keys claimed one by one and
// collected, then acted on. A site inside a region that acts on a local collection every
// addition to which is claimed gets that claim as its gate. A site inside a region that acts
// on a parameter marks its effects as made only on that parameter's elements
// (effect.Effect.ElemsParam), and each caller's argument decides them (solver.passElems):
// a local collection it fills only under claims, here or in the functions of the package it
// hands the collection to.

import (
	"go/ast"
	"go/types"

	"github.com/chokaq/idemlint/internal/sinks"
)

// collections marks the sites of a package's nodes, with the fills of its functions' own
// collections read once each.
type collections struct {
	*builder
	fills map[fillKey]fill
}

// fillKey is a collection of a node: a local variable or a parameter.
type fillKey struct {
	n *Node
	v *types.Var
}

// fill is what ClaimedFill said of a collection: the claim it is filled under (nil: none,
// or nothing added), and whether every addition is claimed.
type fill struct {
	claim *sinks.Gate
	ok    bool
}

// mark sets the sites of n that act on a collection: their elems, or the gate of the claim
// the collection is filled under; and the claims of the local collections n's calls pass.
func (c collections) mark(n *Node) {
	if len(n.Sites) == 0 {
		return
	}
	for _, r := range c.in.Judge.Collections(n.Body) {
		if i := sinks.ParamIndex(n.scope, r.Var); i > 0 {
			for k := range n.Sites {
				if s := &n.Sites[k]; r.Start <= s.Pos && s.Pos < r.End && s.elems == 0 {
					s.elems = uint8(i)
				}
			}
			continue
		}
		g := c.claimedLocal(n, r.Var)
		if g == nil {
			continue
		}
		over := g.Over(r.Var.Name(), r.Start, r.End)
		for k := range n.Sites {
			if s := &n.Sites[k]; over.Covers(s.Pos) {
				s.gates = append(stableGates(s.gates), over)
			}
		}
	}
	for k := range n.Sites {
		s := &n.Sites[k]
		for i, a := range s.args {
			id, ok := ast.Unparen(a).(*ast.Ident)
			if !ok {
				continue
			}
			v, ok := c.in.Info.Uses[id].(*types.Var)
			if !ok || sinks.ParamIndex(n.scope, v) > 0 {
				continue
			}
			if g := c.claimedLocal(n, v); g != nil {
				if s.claimed == nil {
					s.claimed = map[int]*sinks.Gate{}
				}
				s.claimed[i] = g.Over(v.Name(), s.Pos, s.Pos+1)
			}
		}
	}
}

// claimedLocal returns the claim under which n fills its local collection v, or nil when
// it adds to it outside one (or adds nothing, or v is no collection).
func (c collections) claimedLocal(n *Node, v *types.Var) *sinks.Gate {
	switch v.Type().Underlying().(type) {
	case *types.Slice, *types.Map:
	default:
		return nil
	}
	f := c.read(n, v, true)
	if !f.ok {
		return nil
	}
	return f.claim
}

// fillOf answers gates.FillOf for the functions of the package.
func (c collections) fillOf(fn *types.Func, param int) (*sinks.Gate, bool) {
	m := c.ByFunc[fn]
	if m == nil || m.Sig == nil || param >= m.Sig.Params().Len() {
		return nil, false
	}
	f := c.read(m, m.Sig.Params().At(param), false)
	return f.claim, f.ok
}

// read returns what n's body adds to v, read once; a collection met again while it is being
// read (a recursive call) is not known.
func (c collections) read(n *Node, v *types.Var, local bool) fill {
	key := fillKey{n, v}
	if f, seen := c.fills[key]; seen {
		return f
	}
	c.fills[key] = fill{}
	g, ok := c.in.Judge.ClaimedFill(n.Body, v, local, c.gatesOf(n), c.fillOf)
	c.fills[key] = fill{g, ok}
	return c.fills[key]
}

// stableGates returns the gates of gs that claim with a stable key (a gate that guards
// nothing, kept to say why, gives way to one that guards).
func stableGates(gs []*sinks.Gate) []*sinks.Gate {
	var out []*sinks.Gate
	for _, g := range gs {
		if g.Why == "" {
			out = append(out, g)
		}
	}
	return out
}

package decisions

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/handlers"
)

// candidate is one handler's effect finding before the findings of a shared sink are made
// one: its diagnostic, what it judged, and the other handlers that reach its sink.
type candidate struct {
	verdict checks.Verdict
	handler int
	h       handlers.Handler
	open    openEffect
	shared  []sharer
}

// rootCause is what makes findings of several handlers one problem: the same sink in the
// same state for the same reason, reached through the same function that is none of the
// handlers, with the same decisions open.
type rootCause struct {
	sink    sinkKey
	through string
	missing string
}

// rootOf returns the root cause of c when its sink is reached by other handlers through a
// function they share that is not one of them: where the fix goes, once for all. A finding
// whose handler reaches other sinks of the kind that the first one does not also reach
// keeps its own (sinks through code of its own).
func rootOf(c candidate) (rootCause, bool) {
	f := c.open
	if len(c.shared) == 0 || f.Synthetic || f.Contradiction != "" {
		return rootCause{}, false
	}
	through := sharedFunc(c.h.Name, f.Effect.Chain, c.shared)
	if through == "" || through == c.h.Name || len(f.Effect.Chain) < 2 {
		return rootCause{}, false
	}
	return rootCause{keyOf(ownEffect(c.h, f)), through, strings.Join(checklist.Names(f.Missing), ",")}, true
}

// merge makes the effect findings with one root cause one finding: the one of the handler
// declared first, placed at the call in the shared function when that function is in the
// package (else at that handler's call), naming every handler that reaches it. Findings
// whose handlers reach sinks of their own stay as they are; their order is kept.
func merge(fset *token.FileSet, cs []candidate) []checks.Verdict {
	groups := map[rootCause][]int{}
	for i, c := range cs {
		if rc, ok := rootOf(c); ok {
			groups[rc] = append(groups[rc], i)
		}
	}
	drop := map[int]bool{}
	for rc, idx := range groups {
		if len(idx) < 2 {
			continue
		}
		slices.SortStableFunc(idx, func(a, b int) int { return callgraph.ComparePos(fset, cs[a].h.Pos, cs[b].h.Pos) })
		first := idx[0]
		members := []int{first}
		for _, j := range idx[1:] {
			if covers(cs[first].open, cs[j].open) {
				members = append(members, j)
			}
		}
		if len(members) < 2 {
			continue
		}
		v := merged(cs[first], rc, len(members))
		f := *v.Finding
		for _, j := range members[1:] {
			drop[j] = true
			f.Also = append(f.Also, cs[j].handler)
		}
		v.Finding = &f
		cs[first].verdict = v
	}
	var out []checks.Verdict
	for i, c := range cs {
		if !drop[i] {
			out = append(out, c.verdict)
		}
	}
	return out
}

// covers reports whether finding a names every sink finding b does: b has nothing to say
// that a does not.
func covers(a, b openEffect) bool {
	has := map[sinkKey]bool{keyOf(a.Effect): true}
	for _, o := range a.Others {
		has[keyOf(o.Effect)] = true
	}
	if !has[keyOf(b.Effect)] {
		return false
	}
	for _, o := range b.Others {
		if !has[keyOf(o.Effect)] {
			return false
		}
	}
	return true
}

// merged is the one finding of a root cause shared by n handlers, made from the first
// handler's: at the call in the shared function when the package holds it, saying it
// stands for them all, with the first handler among the related information now that the
// finding may sit outside its body.
func merged(c candidate, rc rootCause, n int) checks.Verdict {
	v := c.verdict
	path := c.h.Paths[c.open.Effect.Kind]
	for j, hop := range c.open.Effect.Chain {
		if hop.Func == effect.Cut {
			break // the path's hops end where the chain was cut
		}
		if hop.Func == rc.through && j < len(path.Hops) && path.Hops[j].Pos.IsValid() {
			// The finding moves to the hop's call: that hop leaves the related
			// information, and the handler's own call to the chain enters it.
			at := path.Hops[j].Pos
			related := []analysis.RelatedInformation{{Pos: path.Call, Message: fmt.Sprintf("handler %s calls it here", c.h.Name)}}
			for _, r := range v.Related {
				if r.Pos != at {
					related = append(related, r)
				}
			}
			v.Pos, v.Related = at, related
			break
		}
	}
	all := "all " + fmt.Sprint(n)
	switch total := len(c.shared) + 1; {
	case n < total:
		all = fmt.Sprintf("%d of the %d", n, total)
	case n == 2:
		all = "both"
	}
	old := notes(c.h.Name, c.open, c.shared)
	v.Message = strings.Replace(v.Message, old, old+" (one finding for "+all+")", 1)
	return v
}

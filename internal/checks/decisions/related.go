package decisions

import (
	"fmt"
	"go/token"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/handlers"
)

// maxRelated caps each list a finding adds to its related information (its other sinks,
// the other handlers that share its sink): the message gives the full count.
const maxRelated = 5

// sharer is a handler of the package whose finding reaches a given sink, as its reported
// sink or among its others.
type sharer struct {
	handler int // index in the package's handlers
	name    string
	pos     token.Pos
	chain   []effect.Hop // its chain to the sink
}

// sinkKey is one problem at one sink: two handlers' findings with the same key end in the
// same call, in the same state, for the same reason. A keyed sink whose key each handler
// passes is another problem per handler (one passes a random key, one a constant): the
// problem is in the caller, not in the function they share.
type sinkKey struct {
	kind   effect.Kind
	id     string
	state  effect.State
	detail string
}

func keyOf(e effect.Effect) sinkKey {
	return sinkKey{e.Kind, callgraph.SinkID(e), e.State, e.Detail}
}

// sharedSinks indexes, per sink, the handlers of the package whose effect findings reach
// it, in handler order. A contradicted declaration is no effect finding: it shares nothing.
func sharedSinks(hs []handlers.Handler, vs []verdict) map[sinkKey][]sharer {
	idx := map[sinkKey][]sharer{}
	for i, v := range vs {
		h := hs[i]
		for _, f := range v.Findings {
			if f.Synthetic || f.Contradiction != "" {
				continue
			}
			add := func(e effect.Effect) {
				idx[keyOf(e)] = append(idx[keyOf(e)], sharer{handler: i, name: h.Name, pos: h.Pos, chain: e.Chain})
			}
			add(ownEffect(h, f))
			for _, o := range f.Others {
				add(o.Effect)
			}
		}
	}
	return idx
}

// ownEffect is the effect of finding f as solved, before the check added what the
// handler's wrapping says to its detail: what another handler's effect is compared with.
func ownEffect(h handlers.Handler, f openEffect) effect.Effect {
	if e, ok := h.Effects.Known().Get(f.Effect.Kind); ok {
		return e
	}
	return f.Effect
}

// othersSharing returns the handlers other than handler i that reach the sink of finding
// f with the same problem, sorted by position.
func othersSharing(fset *token.FileSet, idx map[sinkKey][]sharer, i int, h handlers.Handler, f openEffect) []sharer {
	if f.Synthetic || f.Contradiction != "" {
		return nil
	}
	var out []sharer
	for _, s := range idx[keyOf(ownEffect(h, f))] {
		if s.handler != i {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b sharer) int { return callgraph.ComparePos(fset, a.pos, b.pos) })
	return out
}

// notes is what a finding's message says between its chain and its missing decisions: how
// many other sinks of its kind the handler reaches, and which other handlers reach its sink.
func notes(name string, f openEffect, shared []sharer) string {
	var b strings.Builder
	if n := len(f.Others); n > 0 {
		fmt.Fprintf(&b, " and %d more %s %s", n, f.Effect.Kind, plural(n, "sink", "sinks"))
	}
	if len(shared) > 0 {
		if len(shared) == 1 {
			fmt.Fprintf(&b, "; handler %s reaches it too", shared[0].name)
		} else {
			fmt.Fprintf(&b, "; %d other handlers reach it too", len(shared))
		}
		if fn := sharedFunc(name, f.Effect.Chain, shared); fn != "" {
			b.WriteString(", through " + fn)
		}
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// sharedFunc names the outermost function that the handler's chain and every other
// handler's chain to the same sink run through: where the shared effect sits. It is "" when
// the chains share only the sink call and the function holding it is not known for sure
// (a chain cut at effect.MaxChain drops its middle hops: the common part stops at the
// effect.Cut mark).
func sharedFunc(name string, own []effect.Hop, shared []sharer) string {
	common := len(own)
	for _, s := range shared {
		n := 0
		for n < len(own) && n < len(s.chain) && own[len(own)-1-n].Func == s.chain[len(s.chain)-1-n].Func && own[len(own)-1-n].Func != effect.Cut {
			n++
		}
		common = min(common, n)
	}
	switch {
	case common >= 2:
		return own[len(own)-common].Func
	case common == 1 && len(own) == 1:
		return name // the sink is in the handler's body, and the others call the handler
	case common == 1 && len(own) < effect.MaxChain:
		return own[len(own)-2].Func
	}
	return ""
}

// othersRelated lists the handler's other sinks of the finding's kind, by position.
func othersRelated(name string, f openEffect) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for i, o := range f.Others {
		if i == maxRelated {
			break
		}
		msg := fmt.Sprintf("also %s: %s (%s)", o.Effect.Kind, o.Effect.Detail, chainText(name, o.Effect.Chain))
		if i == maxRelated-1 && len(f.Others) > maxRelated {
			msg += fmt.Sprintf("; %d more not listed", len(f.Others)-maxRelated)
		}
		out = append(out, analysis.RelatedInformation{Pos: o.Pos, Message: msg})
	}
	return out
}

// sharedRelated names the other handlers that reach the finding's sink, at their
// declarations.
func sharedRelated(shared []sharer) []analysis.RelatedInformation {
	var out []analysis.RelatedInformation
	for i, s := range shared {
		if i == maxRelated {
			break
		}
		msg := fmt.Sprintf("handler %s reaches the same sink (%s)", s.name, chainText(s.name, s.chain))
		if i == maxRelated-1 && len(shared) > maxRelated {
			msg += fmt.Sprintf("; %d more not listed", len(shared)-maxRelated)
		}
		out = append(out, analysis.RelatedInformation{Pos: s.pos, Message: msg})
	}
	return out
}

// chainText renders a chain from handler name: "H -> pkg.f -> (*sql.DB).Exec".
func chainText(name string, chain []effect.Hop) string {
	hops := []string{name}
	for _, hop := range chain {
		hops = append(hops, hop.Func)
	}
	return strings.Join(hops, " -> ")
}

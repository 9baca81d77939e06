// Package decisions is the check at the heart of idemlint: for each effect of a handler, the
// checklist decisions (key, enforcement, ttl, partial) the code leaves open, less those a
// //idemlint:decisions declaration answers, unless the code contradicts the declaration.
// Each finding is placed on the call in the handler's body that leads to its effect, names
// the chain, the handler's other sinks of its kind and the other handlers that reach the
// same sink, and offers the fixes that are mechanical (fixes.go).
package decisions

import (
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/handlers"
	"github.com/chokaq/idemlint/internal/rules"
)

// Check is the decisions check.
var Check = checks.Check{
	Name:       "decisions",
	Doc:        "Reports each handler's effect that is not safe to repeat, with the checklist decisions it leaves open, and declarations the code contradicts.",
	Categories: append(kindCategories(), rules.Decisions),
	Run:        run,
}

func kindCategories() []rules.Category {
	var out []rules.Category
	for _, k := range effect.Kinds {
		out = append(out, rules.Category(k))
	}
	return out
}

// run judges every handler of the package, then turns the verdicts into diagnostics: the
// other handlers that share a sink are known only once every handler is judged.
func run(in *checks.Input) checks.Output {
	var out checks.Output
	vs := make([]verdict, len(in.Handlers))
	for i, h := range in.Handlers {
		vs[i] = judge(h, h.Effects.Known(), in.Config)
		vs[i].AddOthers(h)
		out.Used = append(out.Used, vs[i].Used...)
	}
	shared := sharedSinks(in.Handlers, vs)
	fx := fixer{in}
	var cs []candidate
	for i, h := range in.Handlers {
		out.Verdicts = append(out.Verdicts, vs[i].Problems...)
		cs = append(cs, fx.findings(i, h, vs[i], shared)...)
	}
	if in.Config.PerHandler {
		for _, c := range cs {
			out.Verdicts = append(out.Verdicts, c.verdict)
		}
	} else {
		out.Verdicts = append(out.Verdicts, merge(in.Fset, cs)...)
	}
	for j, r := range in.Remote {
		out.Verdicts = append(out.Verdicts, fx.remoteFindings(len(in.Handlers)+j, r)...)
	}
	return out
}

// remoteFindings judges a function of another package registered here (handler i of the
// input) from its fact, as a handler of its own package would be judged, and reports each
// finding at the registration: the only place in view when no program-wide link hands it
// to its package (go vet, golangci-lint; see analyzer.Program.Registered). The first
// finding whose key is missing offers the fix that wraps the registration.
func (fx fixer) remoteFindings(i int, r handlers.Remote) []checks.Verdict {
	h := handlers.Handler{Name: effect.FuncName(r.Fn, nil), Framework: r.Framework, Effects: r.Effects,
		Wrapped: r.Wrapped, Retention: r.Retention, TxCompletion: r.TxCompletion, RegCall: r.RegCall, AtMostOnce: r.AtMostOnce}
	wrap := fx.wrapFix(h)
	var out []checks.Verdict
	for _, f := range judge(h, r.Effects.Known(), fx.in.Config).Findings {
		v := checks.Verdict{
			Pos:      r.Pos,
			Category: rules.Category(f.Effect.Kind),
			Message:  message(h.Name, f, "") + " (registered here)",
			Finding:  &checks.EffectFinding{Handler: i, Effect: f.Effect, Missing: f.Missing},
		}
		if decl := r.Fn.Pos(); decl.IsValid() {
			// The handler's body is in another package: point at it (a position from
			// export data names its file and line under go vet).
			v.Related = []analysis.RelatedInformation{{Pos: decl, Message: "handler " + h.Name + " declared here"}}
		}
		if f.Synthetic {
			v.Category = rules.Decisions
			v.Message = fmt.Sprintf("handler %s: %s; missing: %s (registered here)", h.Name, f.Effect.Detail, missingText(f))
		} else if wrap != nil && slices.Contains(f.Missing, checklist.Key) {
			v.Fixes, wrap = []analysis.SuggestedFix{*wrap}, nil
		}
		out = append(out, v)
	}
	return out
}

// findings returns the diagnostics of handler i's findings, with the fixes offered on them,
// as candidates for merge.
func (fx fixer) findings(i int, h handlers.Handler, v verdict, shared map[sinkKey][]sharer) []candidate {
	skeleton := skeletonFix(h, v.Open)
	wrap := fx.wrapFix(h)
	var out []candidate
	for j, f := range v.Findings {
		others := othersSharing(fx.in.Fset, shared, i, h, f)
		d := diagnostic(h, f, others)
		if fix := fx.headerFix(h, f.Effect); fix != nil && f.Contradiction == "" {
			d.Fixes = append(d.Fixes, *fix)
		}
		if wrap != nil && f.Contradiction == "" && slices.Contains(f.Missing, checklist.Key) {
			// Offered once, on the first finding the middleware's key would answer.
			d.Fixes = append(d.Fixes, *wrap)
			wrap = nil
		}
		if j == 0 && skeleton != nil {
			// Offer the skeleton once, on the handler's first finding.
			d.Fixes = append(d.Fixes, *skeleton)
		}
		d.Finding = &checks.EffectFinding{Handler: i, Effect: f.Effect, Missing: f.Missing}
		out = append(out, candidate{verdict: d, handler: i, h: h, open: f, shared: others})
	}
	return out
}

// message is the one-line text of a finding for handler name; notes go between the chain
// and the missing decisions.
func message(name string, f openEffect, notes string) string {
	e := f.Effect
	return fmt.Sprintf("handler %s: %s (%s)%s; missing: %s", name, e.Detail, chainText(name, e.Chain), notes, missingText(f))
}

// missingText lists the decisions f leaves open, each of partial and ttl with why it is
// asked for here (two findings of one kind can differ in them: partial only where the
// handler's effects span systems, ttl only behind a middleware without a retention).
func missingText(f openEffect) string {
	names := checklist.Names(f.Missing)
	for i, d := range f.Missing {
		switch {
		case d == checklist.Partial && f.PartialWhy != "":
			names[i] += " (" + f.PartialWhy + ")"
		case d == checklist.TTL && f.TTLWhy != "":
			names[i] += " (" + f.TTLWhy + ")"
		}
	}
	return strings.Join(names, ", ")
}

// diagnostic places a finding on the call in the handler's body that leads to its effect,
// with related information: the in-package hops after it, the handler's other sinks of
// its kind, and the other handlers that reach its sink (shared).
func diagnostic(h handlers.Handler, f openEffect, shared []sharer) checks.Verdict {
	e := f.Effect
	path := h.Paths[e.Kind]
	pos := path.Call
	if !pos.IsValid() {
		pos = h.Body
	}
	category, msg := rules.Category(e.Kind), message(h.Name, f, notes(h.Name, f, shared))
	if f.Contradiction != "" {
		category = rules.Decisions
		msg = fmt.Sprintf("handler %s: %s", h.Name, f.Contradiction)
	}
	if f.Synthetic {
		pos = h.Body
		if h.Decl != nil {
			pos = h.Pos
		}
		category = rules.Decisions
		msg = fmt.Sprintf("handler %s: %s; missing: %s", h.Name, e.Detail, missingText(f))
	}

	// Related: the in-package hops after the first, so an editor can walk the chain.
	var related []analysis.RelatedInformation
	for _, hop := range path.Hops {
		related = append(related, analysis.RelatedInformation{Pos: hop.Pos, Message: "via " + hop.Func})
	}
	if !f.Synthetic && f.Contradiction == "" {
		related = append(related, othersRelated(h.Name, f)...)
		related = append(related, sharedRelated(shared)...)
	}
	return checks.Verdict{Pos: pos, Category: category, Message: msg, Related: related}
}

// Package report is the one stage that reports: it turns the checks' verdicts into
// diagnostics (position, category, its documentation URL, message, related information,
// suggested fixes) and, from the same values, the structured findings and handlers that
// drivers write as JSON, SARIF, baselines and the inventory. A finding and its diagnostic
// are made together, so a driver never has to match one to the other by its text.
package report

import (
	"fmt"
	"github.com/chokaq/idemlint/internal/frameworks"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/checks/decisions"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/handlers"
	"github.com/chokaq/idemlint/internal/rules"
	"github.com/chokaq/idemlint/internal/sinks"
)

// Result lists what the pass found, for drivers that report more than diagnostics (the
// handler inventory) and for tests.
type Result struct {
	Handlers   []*Handler
	Directives []*directive.Directive // every //idemlint: directive in the package, with Used set
	Findings   []*Finding             // one per effect diagnostic reported, in report order
	// Program summarises the package for a program-wide link; nil unless the analyzer was
	// made for one (analyzer.ForProgram).
	Program *callgraph.Summary
	// Jobs are the retry settings the package gives jobs (program-wide link only): the
	// driver hands every package's to the next round, where a job runs at most once only
	// if every insert in the program says so.
	Jobs []frameworks.JobRetry
}

// Finding is one reported effect diagnostic in structured form, for drivers that write
// machine-readable output or match findings against a baseline without parsing messages.
type Finding struct {
	Pos     token.Pos     // the diagnostic's position
	Message string        // the diagnostic's message
	Handler *Handler      // the handler it is reported for
	Effect  effect.Effect // as reported: for a wrapped handler, Detail and State say so
	Missing []string      // the checklist decisions not answered: "key", "enforcement"
}

// Handler is a job or message handler found in the package, with its effects after
// suppression.
type Handler struct {
	Pos       token.Pos // the handler's declaration (or literal)
	Name      string    // as in messages: "HandleOrder", "(*ChargeHandler).ProcessTask"
	Framework string    // "asynq", "river", "watermill", "idempotency", "directive"
	Effects   effect.Set
	Wrapped   bool // handed to idemlint's runtime middleware where it is registered
	// AtMostOnce says why its queue never runs its job again, or "".
	AtMostOnce string
	// Unresolved are the interface calls it makes (in its body or its package's callees)
	// that the analysis resolved to nothing: a driver that sees the whole program tells
	// which nothing implements (callgraph.Unresolved).
	Unresolved []callgraph.OpenCall
}

// HandlerVerdicts are the checks' verdicts on one handler of the package.
type HandlerVerdicts struct {
	Handler   handlers.Handler
	Effects   effect.Set // its known effects
	Decisions decisions.Verdict
	TTL       *checks.Problem // a declared ttl the retry horizon contradicts
	// Unresolved are the interface calls the handler makes that resolved to nothing.
	Unresolved []callgraph.OpenCall
}

// RemoteVerdicts are the verdicts on a handler of another package registered here.
type RemoteVerdicts struct {
	Remote   handlers.Remote
	Effects  effect.Set
	Findings []checks.Finding
}

// Input is what Emit reports, in the order it is reported.
type Input struct {
	Fset   *token.FileSet
	Pkg    *types.Package
	Files  []*ast.File
	Judge  *sinks.Judge // for the header fix: is a key in scope stable
	Report func(analysis.Diagnostic)

	Retentions []checks.Problem
	Handlers   []HandlerVerdicts
	Remote     []RemoteVerdicts
	Directives []checks.Problem
}

// Emit reports every verdict and returns the handlers and effect findings.
func Emit(in Input) ([]*Handler, []*Finding) {
	for _, p := range in.Retentions {
		in.Report(problem(p))
	}
	var out []*Handler
	var findings []*Finding
	shared := sharedSinks(in.Handlers)
	for i, hv := range in.Handlers {
		hd, fs := in.handler(hv, othersOf(in.Fset, shared, i, hv))
		out = append(out, hd)
		findings = append(findings, fs...)
	}
	for _, rv := range in.Remote {
		hd := &Handler{Pos: rv.Remote.Pos, Name: effect.FuncName(rv.Remote.Fn, nil), Framework: rv.Remote.Framework, Effects: rv.Effects}
		out = append(out, hd)
		for _, f := range rv.Findings {
			d := analysis.Diagnostic{
				Pos:      rv.Remote.Pos,
				Category: string(f.Effect.Kind),
				URL:      rules.URL(rules.Category(f.Effect.Kind)),
				Message:  message(hd.Name, f.Effect, f.Missing, "") + " (registered here)",
			}
			in.Report(d)
			findings = append(findings, &Finding{Pos: d.Pos, Message: d.Message, Handler: hd, Effect: f.Effect, Missing: checklist.Names(f.Missing)})
		}
	}
	for _, p := range in.Directives {
		in.Report(problem(p))
	}
	return out, findings
}

// othersOf returns, per finding of handler i, the other handlers that reach its sink.
func othersOf(fset *token.FileSet, idx map[sinkKey][]sharer, i int, hv HandlerVerdicts) [][]sharer {
	out := make([][]sharer, len(hv.Decisions.Findings))
	for j, f := range hv.Decisions.Findings {
		out[j] = othersSharing(fset, idx, i, hv, f)
	}
	return out
}

// handler reports one handler's problems and findings, with the fixes offered on them;
// shared holds, per finding, the other handlers of the package that reach its sink.
func (in Input) handler(hv HandlerVerdicts, shared [][]sharer) (*Handler, []*Finding) {
	h := hv.Handler
	hd := &Handler{Pos: h.Pos(), Name: h.Name, Framework: h.Framework, Effects: hv.Effects, Wrapped: h.Wrapped, AtMostOnce: h.AtMostOnce, Unresolved: hv.Unresolved}
	if hv.TTL != nil {
		in.Report(problem(*hv.TTL))
	}
	for _, p := range hv.Decisions.Problems {
		in.Report(problem(p))
	}
	skeleton := skeletonFix(h, hv.Decisions.Open)
	wrap := in.wrapFix(h)
	var findings []*Finding
	for i, f := range hv.Decisions.Findings {
		d := diagnostic(h, f, shared[i])
		if fix := in.headerFix(h, f.Effect); fix != nil && f.Contradiction == "" {
			d.SuggestedFixes = append(d.SuggestedFixes, *fix)
		}
		if wrap != nil && f.Contradiction == "" && slices.Contains(f.Missing, checklist.Key) {
			// Offered once, on the first finding the middleware's key would answer.
			d.SuggestedFixes = append(d.SuggestedFixes, *wrap)
			wrap = nil
		}
		if i == 0 && skeleton != nil {
			// Offer the skeleton once, on the handler's first finding.
			d.SuggestedFixes = append(d.SuggestedFixes, *skeleton)
		}
		in.Report(d)
		findings = append(findings, &Finding{Pos: d.Pos, Message: d.Message, Handler: hd, Effect: f.Effect, Missing: checklist.Names(f.Missing)})
	}
	return hd, findings
}

func problem(p checks.Problem) analysis.Diagnostic {
	return analysis.Diagnostic{Pos: p.Pos, Category: string(p.Category), URL: rules.URL(p.Category), Message: p.Message, SuggestedFixes: p.Fixes}
}

// message is the one-line text of a finding for handler name; notes go between the chain
// and the missing decisions.
func message(name string, e effect.Effect, missing []checklist.Decision, notes string) string {
	return fmt.Sprintf("handler %s: %s (%s)%s; missing: %s", name, e.Detail, chainText(name, e.Chain), notes, strings.Join(checklist.Names(missing), ", "))
}

// diagnostic places a finding on the call in the handler's body that leads to its effect,
// with related information: the in-package hops after it, the handler's other sinks of
// its kind, and the other handlers that reach its sink (shared).
func diagnostic(h handlers.Handler, f checks.Finding, shared []sharer) analysis.Diagnostic {
	e := f.Effect
	o := h.From[e.Kind]
	pos := o.Pos
	if !pos.IsValid() {
		pos = h.Body.Lbrace
	}
	category, msg := rules.Category(e.Kind), message(h.Name, e, f.Missing, notes(h.Name, f, shared))
	if f.Contradiction != "" {
		category = rules.Decisions
		msg = fmt.Sprintf("handler %s: %s", h.Name, f.Contradiction)
	}
	if f.Synthetic {
		pos = h.Body.Lbrace
		if h.Decl != nil {
			pos = h.Decl.Name.Pos()
		}
		category = rules.Decisions
		msg = fmt.Sprintf("handler %s: %s; missing: %s", h.Name, e.Detail, strings.Join(checklist.Names(f.Missing), ", "))
	}

	// Related: the in-package hops after the first, so an editor can walk the chain.
	var related []analysis.RelatedInformation
	for v, depth := o.Via, 0; v != nil && depth < effect.MaxChain; depth++ {
		next, ok := v.From[e.Kind]
		if !ok || !next.Pos.IsValid() {
			break
		}
		related = append(related, analysis.RelatedInformation{Pos: next.Pos, Message: "via " + v.Name})
		v = next.Via
	}
	if !f.Synthetic && f.Contradiction == "" {
		related = append(related, othersRelated(h.Name, f)...)
		related = append(related, sharedRelated(shared)...)
	}
	return analysis.Diagnostic{
		Pos:      pos,
		Category: string(category),
		URL:      rules.URL(category),
		Message:  msg,
		Related:  related,
	}
}

// fileAt returns the package file containing pos.
func (in Input) fileAt(pos token.Pos) *ast.File {
	for _, f := range in.Files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			return f
		}
	}
	return nil
}

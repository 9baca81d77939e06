// Package report is the one stage that reports: it turns any check's verdicts into
// diagnostics (with each category's documentation URL) and, from the same values, the
// structured findings and handlers that drivers write as JSON, SARIF, baselines and the
// inventory. A finding and its diagnostic are made together, so a driver never has to match
// one to the other by its text. It has no code of its own per check.
package report

import (
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/handlers"
	"github.com/chokaq/idemlint/internal/rules"
)

// FindingRecord is one reported effect diagnostic in structured form, for drivers that write
// machine-readable output or match findings against a baseline without parsing messages.
type FindingRecord struct {
	Pos     token.Pos      // the diagnostic's position
	Message string         // the diagnostic's message
	Handler *HandlerRecord // the handler it is reported for
	// Also are the other handlers whose finding of the same root cause this one stands for
	// (a sink reached through a function they share): their effect is reported too.
	Also    []*HandlerRecord
	Effect  effect.Effect // as reported: for a wrapped handler, Detail and State say so
	Missing []string      // the checklist decisions not answered: "key", "enforcement"
}

// HandlerRecord is a job or message handler found in the package, with its effects after
// suppression.
type HandlerRecord struct {
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
	// Unfollowed are the function values it calls with nothing in view behind them
	// (handlers.Handler.Unfollowed).
	Unfollowed []string
	// Elsewhere are its registrations in other packages (handlers.Handler.Elsewhere): its
	// findings name them.
	Elsewhere []callgraph.Registration
}

// Input is what Emit reports.
type Input struct {
	Handlers []handlers.Handler
	Remote   []handlers.Remote
	// Verdicts are every check's, in the order they are reported.
	Verdicts []checks.Verdict
	Report   func(analysis.Diagnostic)
}

// Emit reports every verdict and returns the handlers (the package's, then those of other
// packages registered here) and the effect findings, in report order.
func Emit(in Input) ([]*HandlerRecord, []*FindingRecord) {
	var hs []*HandlerRecord
	for _, h := range in.Handlers {
		hs = append(hs, &HandlerRecord{Pos: h.Pos, Name: h.Name, Framework: h.Framework, Effects: h.Effects.Known(), Wrapped: h.Wrapped, AtMostOnce: h.AtMostOnce, Unresolved: h.Unresolved, Unfollowed: h.Unfollowed, Elsewhere: h.Elsewhere})
	}
	for _, r := range in.Remote {
		hs = append(hs, &HandlerRecord{Pos: r.Pos, Name: effect.FuncName(r.Fn, nil), Framework: r.Framework, Effects: r.Effects.Known(), AtMostOnce: r.AtMostOnce})
	}
	var findings []*FindingRecord
	for _, v := range in.Verdicts {
		d := analysis.Diagnostic{Pos: v.Pos, Category: string(v.Category), URL: rules.URL(v.Category), Message: v.Message, Related: v.Related, SuggestedFixes: v.Fixes}
		in.Report(d)
		if f := v.Finding; f != nil {
			rec := &FindingRecord{Pos: d.Pos, Message: d.Message, Handler: hs[f.Handler], Effect: f.Effect, Missing: checklist.Names(f.Missing)}
			for _, i := range f.Also {
				rec.Also = append(rec.Also, hs[i])
			}
			findings = append(findings, rec)
		}
	}
	return hs, findings
}

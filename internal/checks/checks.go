// Package checks is the contract between the checks and the stages around them. A check is
// a package below this one with a Check value: its name, its documentation, and a Run
// function that reads a typed Input (the package, its handlers as plain values, what the
// configuration requires) and returns Verdicts: diagnostics with their related information
// and fixes, the effect findings among them carrying the handler and effect they are about.
// Checks compute; they never report: package report turns any verdict into a diagnostic and
// the structured findings drivers write, with no code of its own per check. The list of
// checks, in the order they run, is package all.
package checks

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/frameworks"
	"github.com/chokaq/idemlint/internal/handlers"
	"github.com/chokaq/idemlint/internal/rules"
	"github.com/chokaq/idemlint/internal/schema"
)

// Check is one check.
type Check struct {
	// Name is how the configuration turns it off (-disable=ttl) and docs/checks.md's
	// table of checks lists it.
	Name string
	// Doc says in a sentence what it reports; docs/checks.md carries the same text.
	Doc string
	// Categories are the categories of its verdicts.
	Categories []rules.Category
	// Run returns its verdicts on the package, in the order they are reported.
	Run func(*Input) Output
}

// Input is what a check reads.
type Input struct {
	Fset  *token.FileSet
	Pkg   *types.Package
	Info  *types.Info
	Files []*ast.File
	Defs  *defuse.Index
	// Directives returns the parsed directives of a file (nil: none).
	Directives func(*ast.File) *directive.File
	// ReadFile reads a source file, for fixes that edit whole lines (nil: none).
	ReadFile func(string) ([]byte, error)

	// Handlers are the package's handlers; Remote the functions of other packages
	// registered here as handlers. A Finding names one by its index in Handlers, then
	// Remote (Handlers[i] is i, Remote[j] is len(Handlers)+j).
	Handlers []handlers.Handler
	Remote   []handlers.Remote

	Config Config
	// Middleware: the package imports idemlint's runtime middleware, whose retentions the
	// ttl check reads.
	Middleware bool
	// Jobs returns the retry settings in view whose retry horizons are known (none when
	// the package sets its own retry schedule); read on first use, since most packages
	// need none.
	Jobs func() []frameworks.JobRetry
	// Unstable reports whether a variable's value changes on every run (random, from the
	// clock): such a value is no idempotency key, and a fix never offers it as one.
	Unstable func(*types.Var) bool
	// Used holds the directives that silenced or declared something so far: in the stages
	// before the checks (solving, finding handlers) and in the checks before this one.
	Used map[*directive.Directive]bool
}

// Output is what a check returns.
type Output struct {
	Verdicts []Verdict
	// Used are the directives the check's verdicts took into account (a declaration that
	// answered a decision): the checks after it see them in Input.Used.
	Used []*directive.Directive
}

// Verdict is one diagnostic a check asks for.
type Verdict struct {
	Pos      token.Pos
	Category rules.Category
	Message  string
	Related  []analysis.RelatedInformation
	Fixes    []analysis.SuggestedFix
	// Finding is set on an effect finding: what drivers record of it beside the
	// diagnostic (the handler, the effect, the decisions missing).
	Finding *EffectFinding
}

// EffectFinding is the structured part of an effect finding.
type EffectFinding struct {
	// Handler is the index of the handler it is reported for, in Input.Handlers then
	// Input.Remote.
	Handler int
	// Also are the indexes of the other handlers this finding stands for: their findings of
	// the same root cause were made this one (decisions: one root cause, one finding).
	Also    []int
	Effect  effect.Effect // as reported: for a wrapped handler, Detail and State say so
	Missing []checklist.Decision
}

// Config is what the configuration says about reporting: the kinds not to report, the
// decisions to require and the checks not to run.
type Config struct {
	Disabled map[effect.Kind]bool
	Required checklist.Set // nil: every decision
	// Off holds the names of the checks the configuration turns off (-disable=ttl).
	Off map[string]bool
	// PerHandler reports a sink that several handlers reach through a function they
	// share once per handler, instead of once at the shared function (-shared-sinks).
	PerHandler bool
	// Schema is the project's schema (-schema), read once per run; nil: none.
	Schema *schema.Schema
}

// Missing names the checklist decisions a reported effect in state s leaves open.
func Missing(s effect.State) []checklist.Decision {
	switch s {
	case effect.UnstableKey:
		return []checklist.Decision{checklist.Key}
	case effect.Keyed, effect.Claimed:
		return []checklist.Decision{checklist.Enforcement}
	case effect.Protected: // only for a wrapped handler's external effect
		return []checklist.Decision{checklist.Enforcement}
	}
	return []checklist.Decision{checklist.Key, checklist.Enforcement}
}

// External reports whether an effect lands outside the handler's own database, where the
// runtime middleware's completion marker cannot be committed together with it.
func External(k effect.Kind) bool { return k != effect.SQLWrite }

// Declared returns the handler's well-formed //idemlint:decisions declaration, or nil.
func Declared(h handlers.Handler) *directive.Decisions {
	if h.Decisions != nil && h.Decisions.Err == "" {
		return h.Decisions.Decisions
	}
	return nil
}

// Silence drops the verdicts a //idemlint:ignore directive names the category of, on their
// line or the line above (ignoresAt returns the ignores in force at a position), and
// returns the ignores that silenced one. An effect kind's findings are not among them: their
// ignores apply while the effects are solved, where a suppression also stops the effect from
// reaching the callers. A directive problem is not either: the fix is the directive itself.
// What is left is the decisions category.
func Silence(vs []Verdict, ignoresAt func(token.Pos) []*directive.Directive) (kept []Verdict, used []*directive.Directive) {
	for _, v := range vs {
		if v.Category != rules.Directive && !effect.Known(effect.Kind(v.Category)) {
			if d := namer(ignoresAt(v.Pos), string(v.Category)); d != nil {
				used = append(used, d)
				continue
			}
		}
		kept = append(kept, v)
	}
	return kept, used
}

func namer(ds []*directive.Directive, category string) *directive.Directive {
	for _, d := range ds {
		if d.Names(category) {
			return d
		}
	}
	return nil
}

// Package checks holds the verdicts the checks return and the report stage turns into
// diagnostics: a Finding is a handler's effect that leaves checklist decisions open (or
// contradicts a declaration), a Problem any other diagnostic (a retention shorter than the
// retry horizon, a directive that silences nothing). Each check is a package below this one:
// decisions, ttl, directives. Checks compute; they never report.
package checks

import (
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/rules"
)

// Finding is what a handler's effect of one kind leaves open: the checklist decisions
// missing, or a declaration the code contradicts.
type Finding struct {
	Effect        effect.Effect
	Missing       []checklist.Decision
	Contradiction string // set when a //idemlint:decisions declaration does not hold
	Synthetic     bool   // no effect carries it (ttl of a middleware): reported at the handler
	// Others are the handler's other sinks of the same kind that are not safe to repeat,
	// sorted by position: the finding reports the worst one and names these.
	Others []Other
}

// Other is a further sink of a finding's kind that the handler reaches.
type Other struct {
	Effect effect.Effect // as the handler sees it: the chain from the handler to the sink
	Pos    token.Pos     // the sink call, or the call of another package's function that reaches it
}

// Problem is a diagnostic that is not an effect finding.
type Problem struct {
	Pos      token.Pos
	Category rules.Category
	Message  string
	Fixes    []analysis.SuggestedFix
}

// Config is what the configuration says about reporting: the kinds not to report and the
// decisions to require.
type Config struct {
	Disabled map[effect.Kind]bool
	Required checklist.Set // nil: every decision
}

// Missing names the checklist decisions a reported effect in state s leaves open.
func Missing(s effect.State) []checklist.Decision {
	switch s {
	case effect.UnstableKey:
		return []checklist.Decision{checklist.Key}
	case effect.Claimed:
		return []checklist.Decision{checklist.Enforcement}
	case effect.Protected: // only for a wrapped handler's external effect
		return []checklist.Decision{checklist.Enforcement}
	}
	return []checklist.Decision{checklist.Key, checklist.Enforcement}
}

// External reports whether an effect lands outside the handler's own database, where the
// runtime middleware's completion marker cannot be committed together with it.
func External(k effect.Kind) bool { return k != effect.SQLWrite }

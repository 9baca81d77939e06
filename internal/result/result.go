// Package result holds what one idemlint run found, as plain data: findings with their
// fingerprints, handlers with their effects, directives, and the packages that failed.
//
// The driver fills it from the analysis; the output formats, the baseline and the handler
// inventory only read it. It carries no go/packages or go/token types, so that each of those
// can be tested with literals, and so that what a format may print is visible in one place.
package result

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/chokaq/idemlint/internal/effect"
)

// Run is the outcome of one run over a set of packages.
type Run struct {
	Tool       Tool
	Root       string          // absolute directory that Position.File is relative to
	Packages   int             // packages analysed, dependencies included
	Findings   []*Finding      // deduplicated, sorted by position (see Sort)
	Handlers   []*FoundHandler // deduplicated, sorted by position
	Directives []*Directive    // every //idemlint: directive in the named packages
	Errors     []Error         // packages that could not be loaded or analysed
	Disabled   []string        // effect kinds not reported (-disable)
	Duration   time.Duration
	Cached     bool // the run was answered from the result cache: nothing was loaded or analysed
	// Reused counts the packages whose analysis came from the cache's package entries when
	// the run was not answered whole: only the others were parsed, type-checked and analysed.
	Reused int
}

// Tool names the program that made the run.
type Tool struct {
	Name    string // "idemlint"
	Version string // module version, or "(devel)"
	URI     string // where the tool is documented
}

// Position is a place in a source file.
type Position struct {
	Path   string // the file as loaded (absolute); what text output prints
	File   string // slash-separated and relative to Run.Root when the file is inside it, else Path
	Line   int    // 1-based; 0 when unknown
	Column int    // 1-based byte offset in the line, as go/token counts; 0 when unknown
}

// IsValid reports whether p names a line in a file.
func (p Position) IsValid() bool { return p.Path != "" && p.Line > 0 }

// String renders p the way go/token does ("file:line:col"), which is what editors and
// go vet users expect at the start of a diagnostic line.
func (p Position) String() string {
	s := p.Path
	if p.Line > 0 {
		if s != "" {
			s += ":"
		}
		s += strconv.Itoa(p.Line)
		if p.Column != 0 {
			s += ":" + strconv.Itoa(p.Column)
		}
	}
	if s == "" {
		s = "-"
	}
	return s
}

// InRoot reports whether the file lies inside Run.Root, so that a relative path can be
// given to tools that resolve paths against the repository (SARIF, GitHub annotations).
func (p Position) InRoot() bool {
	return p.File != "" && !path.IsAbs(p.File) && !strings.HasPrefix(p.File, "../")
}

// Finding is one diagnostic: an effect reported for a handler, or a directive problem.
type Finding struct {
	Category string // an effect kind ("sql.write", ...) or "directive"
	Message  string // exactly as the analyzer reported it
	URL      string // the documentation of the category
	Pos      Position
	End      Position // equal to Pos when the analyzer gave no end
	Related  []Related
	Package  string // path of the package the finding is in

	// For effect findings (Handler != ""): the structured form of the message.
	Handler    string   // as in the message: "HandleOrder", "(*ChargeHandler).ProcessTask"
	HandlerPos Position // the handler's declaration
	Framework  string   // "asynq", "river", "watermill", "idempotency", "directive"
	State      string   // "unprotected", "unstable-key", "keyed" (a message id its consumers check), or "protected" (wrapped handler)
	Detail     string   // what the effect is and why it is not safe to repeat
	Chain      []Hop    // from the handler (excluded) down to the sink (included)
	Missing    []string // checklist decisions not answered: "key", "enforcement"

	// Fingerprint identifies the finding across edits that move it (see Identity).
	Fingerprint string
	// Known is set when a baseline records the finding: it is reported only as a count.
	Known bool
}

// Related is a secondary position with a note: an in-package hop of the chain.
type Related struct {
	Pos     Position
	Message string
}

// Hop is one call on the way from a handler to its effect.
type Hop struct {
	Func string    // the function called: "(*store.Store).AddLedgerEntry"
	At   string    // where it is called, as "file.go:line" (base name only), or ""
	Pos  *Position // At resolved to a file among the loaded packages, when unambiguous
}

// IsEffect reports whether f is an effect finding rather than a directive problem.
func (f *Finding) IsEffect() bool { return f.Handler != "" }

// Identity is what the fingerprint is computed from. For an effect: the package, the
// handler, the category and the names of the functions on the chain. For a directive
// problem: the package, the file's base name and the message. Neither holds a line number,
// so that edits above a finding, or a handler moved within its package, keep its identity.
func (f *Finding) Identity() string {
	parts := []string{"v1", f.Package, f.Category}
	if f.IsEffect() {
		parts = append(parts, f.Handler)
		for _, h := range f.Chain {
			if h.Func != effect.Cut { // a cut chain's mark: the identity of before it was shown
				parts = append(parts, h.Func)
			}
		}
	} else {
		parts = append(parts, path.Base(f.Pos.File), f.Message)
	}
	return strings.Join(parts, "\x00")
}

// ComputeFingerprint returns the fingerprint of f's identity: 32 hex digits.
func (f *Finding) ComputeFingerprint() string {
	sum := sha256.Sum256([]byte(f.Identity()))
	return hex.EncodeToString(sum[:16])
}

// New returns the findings not recorded in a baseline: what a run reports and fails on.
func (r *Run) New() []*Finding {
	var out []*Finding
	for _, f := range r.Findings {
		if !f.Known {
			out = append(out, f)
		}
	}
	return out
}

// Error is a package that could not be loaded or analysed.
type Error struct {
	Package string // package ID, e.g. "example.com/shop/tasks [example.com/shop/tasks.test]"
	Message string // with its position first when it has one
	Load    bool   // a load error (syntax, types, modules), not an analysis failure
	// Source marks a load error the package's source decides (a syntax or type error),
	// which the run's key covers: a run whose every error is one can be cached. A listing
	// error (a module not downloaded, the network) is not. Not written in any output.
	Source bool `json:"-"`
}

// FoundHandler is a job or message handler found in one of the named packages.
type FoundHandler struct {
	Name      string
	Package   string
	Framework string
	Pos       Position
	Wrapped   bool // handed to idemlint's runtime middleware where it is registered
	// AtMostOnce says why its queue never runs its job again (River MaxAttempts 1, asynq
	// MaxRetry(0) at every insert site in view), or "": its effects are not reported.
	AtMostOnce string
	// Partial names the interfaces of its module it calls with no implementation anywhere
	// in the program (what runs there is not known), or "". Only the command, which sees
	// the whole program, can tell.
	Partial    string
	Effects    []Effect
	Directives []*Directive // directives inside its declaration (doc comment included)
}

// Effect is one kind of side effect a handler reaches, after //idemlint: suppression.
type Effect struct {
	Kind     string
	State    string // "unprotected", "unstable-key", "keyed", "claimed" (a gate: not reported), "protected"
	Detail   string // what it is, or what protects it
	Chain    []Hop
	Reported bool     // a finding was reported for it
	Disabled bool     // its kind is turned off with -disable, so it is not reported
	Missing  []string // for a reported effect: the decisions not answered
}

// Directive is one //idemlint: comment.
type Directive struct {
	Package  string
	Pos      Position
	Verb     string   // "ignore", "idempotent", "handler", or what was written
	Kinds    []string // for ignore: the kinds it names
	Reason   string   // the text after "--"
	Declares string   // for decisions: what it declares, "key=... enforce=... ttl=... partial=..."
	Err      string   // why it is malformed, or ""
	Used     bool     // it silenced something (or, for handler, marked one)
}

// Sort puts findings, handlers and directives in the order every format prints them: by
// file, line and column, then by message or name, so output does not depend on the order
// in which packages finished.
func (r *Run) Sort() {
	slices.SortStableFunc(r.Findings, func(a, b *Finding) int {
		return cmp.Or(comparePos(a.Pos, b.Pos), cmp.Compare(a.Message, b.Message))
	})
	slices.SortStableFunc(r.Handlers, func(a, b *FoundHandler) int {
		return cmp.Or(comparePos(a.Pos, b.Pos), cmp.Compare(a.Name, b.Name))
	})
	slices.SortStableFunc(r.Directives, func(a, b *Directive) int { return comparePos(a.Pos, b.Pos) })
}

func comparePos(a, b Position) int {
	return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
}

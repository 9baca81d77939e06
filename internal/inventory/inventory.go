// Package inventory renders the handler inventory of a run: every handler found, grouped by
// framework and package, with the effects it reaches, what guards them, the chain to each,
// the checklist decisions answered or missing, and the directives that declare decisions,
// with their reasons. A summary counts handlers, protected handlers and findings by kind.
//
// Two renderings of one view: HTML, a single self-contained file (inline style and script,
// no network access) that sorts and filters in the browser, and Markdown for a pull request
// or a wiki. The view is computed here, once, so the two cannot disagree.
package inventory

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/result"
	"github.com/chokaq/idemlint/internal/rules"
)

// Status is what a handler's row says at a glance.
const (
	StatusFindings  = "findings"     // at least one effect reported
	StatusProtected = "protected"    // effects, all guarded, declared or claimed by the middleware
	StatusUnchecked = "not checked"  // unguarded effects only of kinds turned off with -disable
	StatusDeclared  = "declared"     // no effect left once its own directives apply
	StatusNoEffects = "no effects"   // nothing to protect (effects suppressed in callees vanish too)
	StatusOnce      = "at most once" // effects, but its queue never runs its job again, or a claim checked first turns a repeat away
	// StatusNotFollowed: no effect known, but it calls what the analysis could not follow
	// (a callback it was given, an interface nothing in the program implements).
	StatusNotFollowed = "effects not followed"
)

// View is what both renderings show.
type View struct {
	Title      string
	Tool       result.Tool
	Summary    Summary
	Kinds      []KindCount
	Frameworks []Framework
	Handlers   []*Row // all of them, in the order of Frameworks
	Directives []Directive
	Findings   []*result.Finding // directive findings (effect findings are under handlers)
	Errors     []result.Error
}

// Summary counts the run.
type Summary struct {
	Packages     int
	Handlers     int
	Protected    int // handlers with effects and no finding (at most once included)
	WithFindings int
	Declared     int // handlers whose effects its own //idemlint: directives declare safe
	Unchecked    int // handlers whose unguarded effects are all of disabled kinds
	NoEffects    int
	NotFollowed  int // handlers with no effect known that call what the analysis could not follow
	Findings     int // all findings, effect and directive
	Known        int // of which recorded in a baseline
	Directives   int
}

// KindCount is one line of "findings by kind".
type KindCount struct {
	Kind     string
	Short    string
	Docs     string
	Findings int
	Handlers int // handlers reaching the kind at all, guarded or not
}

// Framework groups handlers by framework, then package.
type Framework struct {
	Name     string
	Packages []Package
}

// Package is one package's handlers.
type Package struct {
	Path     string
	Handlers []*Row
}

// Row is one handler's row of the inventory.
type Row struct {
	Name       string
	Package    string
	Framework  string
	Location   string // "shop/tasks/handlers.go:31"
	Line       int
	Status     string
	Wrapped    bool
	AtMostOnce string // why its queue never runs its job again, or ""
	Partial    string // the interfaces it calls with nothing in the program behind them, or ""
	Effects    []Effect
	Directives []Directive
	Findings   int
	Known      int      // findings recorded in a baseline
	Missing    []string // union of the decisions missing over its effects
	Kinds      []string // kinds of its effects
	// Note explains a handler that reaches no effect when directives elsewhere may be why:
	// a callee declared //idemlint:idempotent (or silenced by //idemlint:ignore) leaves
	// no effect for its callers to see.
	Note string
}

// Effect is one effect of a handler, with the decisions the code answers.
type Effect struct {
	Kind        string
	State       string
	Detail      string
	Guard       string // what makes a repeat safe, or why it is not reported
	Chain       string // "H -> f -> sink"
	Reported    bool
	Known       bool
	Message     string // the finding, when reported
	Key         string // "answered", "missing" or "not checked"; TTL also "n/a"
	Enforcement string
	TTL         string
	Partial     string
}

// Directive is one //idemlint: comment.
type Directive struct {
	Location string
	Package  string
	Text     string // "ignore http.write", "idempotent", "handler"
	Reason   string
	Used     bool
	Err      string
}

// Build computes the view of a run.
func Build(title string, run *result.Run) *View {
	v := &View{Title: title, Tool: run.Tool, Errors: run.Errors}
	v.Summary.Packages = run.Packages
	v.Summary.Findings = len(run.Findings)
	v.Summary.Known, v.Findings = splitFindings(run.Findings)
	kinds := newKindCounts(run.Findings)
	var rows []*Row
	for _, h := range run.Handlers {
		row := handler(h, run)
		v.Summary.countStatus(row.Status)
		for _, k := range row.Kinds {
			kinds.get(k).Handlers++
		}
		rows = append(rows, row)
	}
	v.Summary.Handlers = len(run.Handlers)
	v.Frameworks, v.Handlers = groupByFramework(rows)
	v.Kinds = kinds.sorted()
	for _, d := range run.Directives {
		v.Directives = append(v.Directives, directive(d))
	}
	v.Summary.Directives = len(v.Directives)
	return v
}

// splitFindings counts the findings recorded in a baseline and returns the directive
// findings, which belong to no handler's row and so are listed on their own.
func splitFindings(findings []*result.Finding) (known int, directives []*result.Finding) {
	for _, f := range findings {
		if f.Known {
			known++
		}
		if !f.IsEffect() {
			directives = append(directives, f)
		}
	}
	return known, directives
}

// countStatus counts a handler under its status in the summary.
func (s *Summary) countStatus(status string) {
	switch status {
	case StatusFindings:
		s.WithFindings++
	case StatusProtected, StatusOnce:
		s.Protected++
	case StatusDeclared:
		s.Declared++
	case StatusUnchecked:
		s.Unchecked++
	case StatusNotFollowed:
		s.NotFollowed++
	default:
		s.NoEffects++
	}
}

// kindCounts are the lines of "findings by kind", by kind.
type kindCounts map[string]*KindCount

// newKindCounts starts a line for every known kind, so that the table shows the kinds
// with no findings too, and counts the findings of each (kinds outside the rules get a
// line of their own).
func newKindCounts(findings []*result.Finding) kindCounts {
	kinds := kindCounts{}
	for _, r := range rules.All {
		kinds.get(r.ID)
	}
	for _, f := range findings {
		kinds.get(f.Category).Findings++
	}
	return kinds
}

// get returns the line of kind k, adding it on first use.
func (kinds kindCounts) get(k string) *KindCount {
	if kc, ok := kinds[k]; ok {
		return kc
	}
	r := rules.Lookup(k)
	kc := &KindCount{Kind: k, Short: r.Short, Docs: r.HelpURI()}
	kinds[k] = kc
	return kc
}

// sorted lists the lines in the order of the rules (the order the docs present them),
// then any other kinds by name.
func (kinds kindCounts) sorted() []KindCount {
	var list []KindCount
	for _, kc := range kinds {
		list = append(list, *kc)
	}
	order := func(k string) int {
		i := slices.IndexFunc(rules.All, func(r rules.Rule) bool { return r.ID == k })
		if i < 0 {
			return len(rules.All)
		}
		return i
	}
	slices.SortFunc(list, func(a, b KindCount) int {
		return cmp.Or(cmp.Compare(order(a.Kind), order(b.Kind)), cmp.Compare(a.Kind, b.Kind))
	})
	return list
}

// groupByFramework groups the rows by framework, then package, both sorted by name, keeping the
// run's order within a package; it also returns all the rows in that order, so that the
// flat table and the grouped one agree.
func groupByFramework(rows []*Row) ([]Framework, []*Row) {
	byFramework := map[string]map[string][]*Row{}
	for _, row := range rows {
		if byFramework[row.Framework] == nil {
			byFramework[row.Framework] = map[string][]*Row{}
		}
		byFramework[row.Framework][row.Package] = append(byFramework[row.Framework][row.Package], row)
	}
	var frameworks []Framework
	var ordered []*Row
	for _, fw := range sortedKeys(byFramework) {
		g := Framework{Name: fw}
		for _, pkg := range sortedKeys(byFramework[fw]) {
			hs := byFramework[fw][pkg]
			g.Packages = append(g.Packages, Package{Path: pkg, Handlers: hs})
			ordered = append(ordered, hs...)
		}
		frameworks = append(frameworks, g)
	}
	return frameworks, ordered
}

// handler computes the row of one handler: its effects, then the findings about the
// handler as a whole, its directives, and the status that sums them up.
func handler(h *result.FoundHandler, run *result.Run) *Row {
	row := &Row{
		Name:       h.Name,
		Package:    h.Package,
		Framework:  h.Framework,
		Location:   location(h.Pos),
		Line:       h.Pos.Line,
		Wrapped:    h.Wrapped,
		AtMostOnce: h.AtMostOnce,
		Partial:    h.Partial,
	}
	findings := handlerFindings(h, run.Findings)
	for _, e := range h.Effects {
		ev := effectOf(h, e, findings)
		if e.Reported {
			row.countFinding(ev.Known, e.Missing)
		}
		row.Effects = append(row.Effects, ev)
		if !slices.Contains(row.Kinds, e.Kind) {
			row.Kinds = append(row.Kinds, e.Kind)
		}
	}
	// Findings about the handler as a whole (an open ttl or partial decision) belong to no
	// effect: each gets a line of its own so that the row counts it.
	for _, f := range findings {
		if slices.Contains(row.Kinds, f.Category) {
			continue
		}
		ev := Effect{
			Kind: f.Category, State: f.State, Detail: f.Detail, Guard: "none", Reported: true, Known: f.Known,
			Message: f.Message,
		}
		ev.setDecisions(f.Missing)
		ev.ttlApplies(h)
		row.Effects = append(row.Effects, ev)
		row.countFinding(f.Known, f.Missing)
	}
	for _, d := range h.Directives {
		row.Directives = append(row.Directives, directive(d))
	}
	row.Status, row.Note = status(row, h, run)
	return row
}

// handlerFindings are the findings of h, matched by package and declaration as well as by
// name: a handler's name alone need not be unique in a run.
func handlerFindings(h *result.FoundHandler, all []*result.Finding) []*result.Finding {
	var findings []*result.Finding
	for _, f := range all {
		if f.Handler == h.Name && f.Package == h.Package && f.HandlerPos == h.Pos {
			findings = append(findings, f)
		}
	}
	return findings
}

// effectOf computes the line of one effect of h: its chain from the handler, the finding
// reported for it (among findings, h's), what guards it, and which decisions it answers.
func effectOf(h *result.FoundHandler, e result.Effect, findings []*result.Finding) Effect {
	ev := Effect{Kind: e.Kind, State: e.State, Detail: e.Detail, Reported: e.Reported}
	hops := []string{h.Name}
	for _, hop := range e.Chain {
		hops = append(hops, hop.Func)
	}
	ev.Chain = strings.Join(hops, " -> ")
	for _, f := range findings {
		if f.Category == e.Kind {
			ev.Message, ev.Known = f.Message, f.Known
		}
	}
	switch {
	case e.Reported:
		ev.Guard = reportedGuard(e.State, h.Wrapped)
		ev.setDecisions(e.Missing)
	case e.Disabled && e.State != effect.Protected.String():
		ev.Guard = "not checked: " + e.Kind + " is disabled (-disable)"
		ev.Key, ev.Enforcement, ev.TTL, ev.Partial = "not checked", "not checked", "not checked", "not checked"
	case e.State != effect.Protected.String() && h.AtMostOnce != "":
		ev.Guard = "at most once: " + h.AtMostOnce + "; nothing runs it again (a lost one is not retried either)"
		ev.setDecisions(nil)
	case e.State == effect.Claimed.String() && strings.Contains(e.Detail, effect.CheckedFirst):
		ev.Guard = checkedFirst + " (a read before the write): " + claimOf(e.Detail)
		ev.setDecisions(nil)
	case e.State == effect.Claimed.String():
		ev.Guard = "at most once after a crash (claims first): " + claimOf(e.Detail)
		ev.setDecisions(nil)
	case e.State != effect.Protected.String() && h.Wrapped:
		ev.Guard = "the idempotency middleware: its claim keeps a duplicate from running, and the completion marker commits in the write's own transaction (CompleteTx)"
		ev.setDecisions(nil)
	default:
		ev.Guard = e.Detail
		ev.setDecisions(nil)
	}
	ev.ttlApplies(h)
	return ev
}

// ttlApplies marks the ttl decision "n/a" where nothing is retained that could expire
// before the duplicates stop: the decision is asked of a handler wrapped by the runtime
// middleware (its completion markers' retention) or one whose directive declares a ttl.
// An effect with no key kept anywhere has no retention to answer for, and a tick there
// would read as a retention someone chose.
func (e *Effect) ttlApplies(h *result.FoundHandler) {
	if e.TTL != "answered" || h.Wrapped {
		return
	}
	for _, d := range h.Directives {
		if d.Verb == "decisions" && strings.Contains(" "+d.Declares, " ttl=") {
			return
		}
	}
	e.TTL = "n/a"
}

// claimOf is the part of a claimed effect's detail that names its claim ("the conditional
// UPDATE gate at gates.go:39 turns a redelivery away, ..."), or the detail itself.
func claimOf(detail string) string {
	if i := strings.Index(detail, "; the "); i >= 0 {
		return detail[i+2:]
	}
	return detail
}

// reportedGuard says what guards a reported effect: nothing, or something that does not
// make a repeat safe, which the reader should see rather than a bare "none".
func reportedGuard(state string, wrapped bool) string {
	if wrapped {
		return "the idempotency middleware's claim (an external effect can still repeat after a crash)"
	}
	switch state {
	case "unstable-key":
		return "a key that changes on every run"
	case "keyed":
		return "a message id its consumers must deduplicate by"
	}
	return "none"
}

// countFinding counts a finding in the row, and adds the decisions it misses to the row's
// (each once, in the order first seen).
func (row *Row) countFinding(known bool, missing []string) {
	row.Findings++
	if known {
		row.Known++
	}
	for _, m := range missing {
		if !slices.Contains(row.Missing, m) {
			row.Missing = append(row.Missing, m)
		}
	}
}

// status sums up a row at a glance, in order of urgency: findings first, then effects not
// checked, then protected ones; a handler with no effect left is declared when its own
// directives removed them, and otherwise gets a note when directives elsewhere in its
// package may be why.
func status(row *Row, h *result.FoundHandler, run *result.Run) (status, note string) {
	unchecked := false
	for _, e := range row.Effects {
		unchecked = unchecked || e.Key == "not checked"
	}
	declared := false
	for _, d := range h.Directives {
		declared = declared || d.Used && d.Verb != "handler"
	}
	switch {
	case row.Findings > 0:
		return StatusFindings, ""
	case unchecked:
		return StatusUnchecked, ""
	case len(row.Effects) > 0 && (h.AtMostOnce != "" || claims(row)):
		return StatusOnce, ""
	case len(row.Effects) > 0:
		return StatusProtected, ""
	case declared:
		return StatusDeclared, ""
	case h.Partial != "":
		return StatusNotFollowed, h.Partial
	}
	if n := silencing(run, h.Package); n != "" {
		note = "none reached, or only through callees whose effects are declared safe: " + n + " in this package (see Directives)"
	}
	return StatusNoEffects, note
}

// claims reports whether one of a row's effects runs after a claim the code checks first:
// with nothing reported, the handler runs it at most once. A read before the write
// (checkedFirst) is no claim: a crash before its record repeats the effect.
func claims(row *Row) bool {
	return slices.ContainsFunc(row.Effects, func(e Effect) bool {
		return e.State == effect.Claimed.String() && !strings.HasPrefix(e.Guard, checkedFirst)
	})
}

// checkedFirst begins the guard of an effect behind a read before the write.
const checkedFirst = "checked first"

// silencing describes the directives of pkg in use that hide effects from callers
// ("1 //idemlint:idempotent, 2 //idemlint:ignore"), or "" when there are none.
func silencing(run *result.Run, pkg string) string {
	var parts []string
	for _, verb := range []string{"idempotent", "ignore"} {
		n := 0
		for _, d := range run.Directives {
			if d.Package == pkg && d.Used && d.Verb == verb {
				n++
			}
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d //idemlint:%s", n, verb))
		}
	}
	return strings.Join(parts, ", ")
}

// setDecisions marks each checklist decision answered, or missing when listed.
func (e *Effect) setDecisions(missing []string) {
	e.Key = decision(!slices.Contains(missing, "key"))
	e.Enforcement = decision(!slices.Contains(missing, "enforcement"))
	e.TTL = decision(!slices.Contains(missing, "ttl"))
	e.Partial = decision(!slices.Contains(missing, "partial"))
}

func decision(answered bool) string {
	if answered {
		return "answered"
	}
	return "missing"
}

func directive(d *result.Directive) Directive {
	text := d.Verb
	if len(d.Kinds) > 0 {
		text += " " + strings.Join(d.Kinds, ",")
	}
	if d.Declares != "" {
		text += " " + d.Declares
	}
	return Directive{Location: location(d.Pos), Package: d.Package, Text: text, Reason: d.Reason, Used: d.Used, Err: d.Err}
}

func location(p result.Position) string {
	if p.File == "" {
		return ""
	}
	return p.File + ":" + strconv.Itoa(p.Line)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

package analyzer

import (
	"fmt"
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
)

// verdict is what a handler's effect of one kind leaves open: the checklist decisions
// missing, or a declaration the code contradicts.
type verdict struct {
	effect        effect.Effect
	missing       []string
	contradiction string // set when a //idemlint:decisions declaration does not hold
	synthetic     bool   // no effect finding carries it: reported at the handler
}

// decisionOrder is the checklist's order, used for every missing list.
var decisionOrder = []string{"key", "enforcement", "ttl", "partial"}

// judge decides, for each effect of a handler, which checklist decisions the code leaves
// open, takes away those a //idemlint:decisions declaration answers (unless the code
// contradicts the declaration), and returns what is still open, for the skeleton fix.
//
//   - key, enforcement: from the effect's guard (none: both; an unstable key: key).
//   - a handler wrapped by the runtime middleware has its key; its database writes are
//     enforced when the completion is stored in their transaction, its external effects
//     never (the crash window after the effect remains).
//   - a handler registered on a router with an in-memory deduplicator (Watermill's
//     Deduplicator) keeps its missing decisions; its findings say why the deduplicator
//     answers none of them.
//   - ttl: a handler wrapped by the runtime middleware needs an explicit retention.
//   - partial: effects on two or more systems that do not commit together (some effect is
//     not safe to repeat, and the job's completion is not stored in the handler's own
//     transaction) need recorded progress or a manual-review decision.
func (a *analysis_) judge(h handlerNode) ([]verdict, []string) {
	var declared *directive.Decisions
	if h.decisions != nil && h.decisions.Err == "" {
		declared = h.decisions.Decisions
	}
	partial := a.partialOpen(h)
	ttl := h.wrapped && !h.retention
	var out []verdict
	open := map[string]bool{}
	for _, e := range h.effects {
		if e.State == effect.Protected || a.disabled[e.Kind] {
			continue
		}
		if h.txCompletion && commitsWithTx(e) {
			continue // the job's completion commits in the same transaction as the write
		}
		missing := missingDecisions(e.State)
		if h.wrapped {
			switch {
			case !external(e.Kind) && h.txCompletion:
				e.Detail += "; the idempotency middleware claims this handler, but the write commits outside the transaction that stores the completion, so a crash between them repeats it"
			case !external(e.Kind):
				e.Detail += "; the idempotency middleware claims this handler, but a crash between the write and its completion marker repeats it (store the completion in the same transaction: sqlstore CompleteTx)"
			default:
				e.Detail += "; the idempotency middleware claims this handler, but a crash after the external effect repeats it"
			}
			missing = []string{"enforcement"}
		}
		if h.dedup != "" {
			// The router drops a redelivery only while the process that saw the message
			// runs, on that instance, within the window; and it marks the message before
			// the handler runs. Nothing it does answers a decision.
			e.Detail += "; " + h.dedup + " deduplicates in memory only (lost on restart, not shared between instances)"
		}
		if partial {
			missing = append(missing, "partial")
		}
		if ttl {
			missing = append(missing, "ttl")
		}
		missing = a.requiredOnly(ordered(missing))
		if len(missing) == 0 {
			continue // every open decision is one the project does not require
		}
		for _, m := range missing {
			open[m] = true
		}
		v := verdict{effect: e, missing: missing}
		if declared != nil {
			if c := contradiction(declared, e); c != "" {
				v.contradiction = c
			} else {
				v.missing = answeredAway(v.missing, declared, h.decisions)
				if len(v.missing) == 0 {
					continue
				}
			}
		}
		out = append(out, v)
	}
	if ttl && len(out) == 0 && !declared.Answers("ttl") && a.required["ttl"] {
		// All effects are covered, but the middleware's retention is left to its default.
		open["ttl"] = true
		out = append(out, verdict{
			effect:    effect.Effect{Kind: "decisions", Detail: "the idempotency middleware wraps it without an explicit completion retention (WithRetention)"},
			missing:   []string{"ttl"},
			synthetic: true,
		})
	}
	if declared != nil && declared.TTL > 0 && (a.required == nil || a.required["ttl"]) {
		a.checkDeclaredTTL(h, declared.TTL)
	}
	if declared != nil && declared.Key != "" && !a.payloadHas(h, declared.Key) {
		a.pass.Report(analysis.Diagnostic{
			Pos:      h.decisions.Pos,
			Category: "decisions",
			URL:      categoryURL("decisions"),
			Message:  fmt.Sprintf("//idemlint:decisions key=%s names nothing in %s's job: no parameter, payload field or job ID of that name", declared.Key, h.name),
		})
	}
	var list []string
	for _, d := range decisionOrder {
		if open[d] {
			list = append(list, d)
		}
	}
	return out, list
}

// commitsWithTx reports whether an effect commits with the handler's database transaction,
// for a handler that stores its job's completion in it: a write made on a transaction or a
// job inserted through one, and a database write whose connection is not known (a
// repository interface may be handed the transaction). A write on a pool commits on its
// own; an external effect (HTTP, email, payment, publish) cannot roll back.
func commitsWithTx(e effect.Effect) bool {
	return e.Tx == effect.TxIn || (!external(e.Kind) && e.Tx == effect.TxUnknown)
}

// partialOpen reports whether the handler's effects span two or more systems with at least
// one not safe to repeat, and the job's completion is not committed with its database writes.
func (a *analysis_) partialOpen(h handlerNode) bool {
	if h.txCompletion || len(h.effects) < 2 {
		return false
	}
	for _, e := range h.effects {
		if e.State != effect.Protected {
			return true
		}
	}
	return false
}

// contradiction says how the code contradicts a declared enforcement for effect e, or "".
// enforce=middleware is not checked: the middleware is often installed in another package
// (cmd/worker), where the handler's package cannot see it.
func contradiction(d *directive.Decisions, e effect.Effect) string {
	says := ""
	switch d.Enforce {
	case "upsert", "converging":
		if e.Kind == effect.SQLWrite {
			says = e.Detail
		}
	case "provider-key":
		if e.Kind != effect.SQLWrite && e.Kind != effect.EmailSend {
			says = e.Detail
		}
	}
	if says == "" {
		return ""
	}
	return fmt.Sprintf("//idemlint:decisions enforce=%s contradicts the code: %s", d.Enforce, says)
}

// answeredAway removes from missing what the declaration answers, and marks it used.
func answeredAway(missing []string, d *directive.Decisions, dir *directive.Directive) []string {
	var out []string
	for _, m := range missing {
		if d.Answers(m) {
			dir.Used = true
			continue
		}
		out = append(out, m)
	}
	return out
}

// requiredOnly drops the decisions the configuration does not require (-decisions).
func (a *analysis_) requiredOnly(list []string) []string {
	if a.required == nil {
		return list
	}
	var out []string
	for _, d := range list {
		if a.required[d] {
			out = append(out, d)
		}
	}
	return out
}

func ordered(list []string) []string {
	rank := map[string]int{}
	for i, d := range decisionOrder {
		rank[d] = i
	}
	sort.SliceStable(list, func(i, j int) bool { return rank[list[i]] < rank[list[j]] })
	return list
}

// payloadHas reports whether name ("OrderID", "job.ID", "Args.OrderID") names something of
// the handler's job: a parameter, or a field (at any depth, through embedding and pointers)
// of a parameter's type or of a variable the handler decodes the payload into.
func (a *analysis_) payloadHas(h handlerNode, name string) bool {
	last := name[strings.LastIndex(name, ".")+1:]
	var types_ []types.Type
	if sig := a.signature(h.node); sig != nil {
		for i := 0; i < sig.Params().Len(); i++ {
			p := sig.Params().At(i)
			if strings.EqualFold(p.Name(), last) {
				return true
			}
			types_ = append(types_, p.Type())
		}
	}
	ast.Inspect(h.body, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if v, ok := a.pass.TypesInfo.Defs[id].(*types.Var); ok {
				types_ = append(types_, v.Type())
			}
		}
		return true
	})
	seen := map[types.Type]bool{}
	for _, t := range types_ {
		if hasField(t, last, seen, 0) {
			return true
		}
	}
	return false
}

func hasField(t types.Type, name string, seen map[types.Type]bool, depth int) bool {
	if depth > 3 || seen[t] {
		return false
	}
	seen[t] = true
	if named, ok := types.Unalias(deref(t)).(*types.Named); ok {
		// The job ID is a method on some frameworks' types (GetTaskID is a function).
		for i := 0; i < named.NumMethods(); i++ {
			if strings.EqualFold(named.Method(i).Name(), name) {
				return true
			}
		}
	}
	st, ok := deref(t).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if strings.EqualFold(f.Name(), name) || hasField(f.Type(), name, seen, depth+1) {
			return true
		}
	}
	return false
}

// decisionsSkeleton proposes a //idemlint:decisions line listing the open decisions, in the
// handler's doc comment, for a handler declared as a function without one. The values are
// "?" (directive.Undecided): the skeleton answers nothing until a person fills it in, and
// is not an error when every fix is applied at once.
func (a *analysis_) decisionsSkeleton(h handlerNode, open []string) *analysis.SuggestedFix {
	if h.decl == nil || h.decisions != nil || len(open) == 0 {
		return nil
	}
	fields := make([]string, len(open))
	for i, d := range open {
		name := d
		if d == "enforcement" {
			name = "enforce"
		}
		fields[i] = name + "=?"
	}
	line := "//idemlint:decisions " + strings.Join(fields, " ") + " -- why"
	// Directives go last in a doc comment, after a blank comment line, as gofmt wants.
	pos, text := h.decl.Pos(), line+"\n"
	if h.decl.Doc != nil {
		pos, text = h.decl.Doc.End(), "\n//\n"+line
	}
	return &analysis.SuggestedFix{
		Message:   "Add a //idemlint:decisions skeleton for " + h.name,
		TextEdits: []analysis.TextEdit{{Pos: pos, End: pos, NewText: []byte(text)}},
	}
}

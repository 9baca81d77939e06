package decisions

import (
	"fmt"
	"go/types"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/handlers"
	"github.com/chokaq/idemlint/internal/rules"
)

// verdict is the check's answer for one handler, before it becomes diagnostics.
type verdict struct {
	Findings []openEffect
	// Open lists every decision some finding leaves open, in checklist order: what a
	// skeleton declaration should ask for.
	Open []checklist.Decision
	// Problems are declarations that name nothing in the handler's job.
	Problems []checks.Verdict
	// Used holds the handler's declaration when it answered a decision of a finding.
	Used []*directive.Directive
}

// openEffect is what a handler's effect of one kind leaves open: the checklist decisions
// missing, or a declaration the code contradicts.
type openEffect struct {
	Effect        effect.Effect
	Missing       []checklist.Decision
	Contradiction string // set when a //idemlint:decisions declaration does not hold
	Synthetic     bool   // no effect carries it (ttl of a middleware): reported at the handler
	// PartialWhy says why partial is among Missing ("sql.write and email.send do not
	// commit together"), and TTLWhy why ttl is: the words after each in the message.
	PartialWhy, TTLWhy string
	// Others are the handler's other sinks of the same kind that are not safe to repeat,
	// sorted by position: the finding reports the worst one and names these.
	Others []callgraph.Reached
}

// judge decides, for each effect of a handler, which checklist decisions the code leaves
// open:
//
//   - key, enforcement: from the effect's guard (none: both; an unstable key: key).
//   - a handler wrapped by the runtime middleware has its key; its database writes are
//     enforced when the completion is stored in their transaction, its external effects
//     never (the crash window after the effect remains).
//   - a handler registered on a router with an in-memory deduplicator (Watermill's
//     Deduplicator) keeps its missing decisions; its findings say why the deduplicator
//     answers none of them.
//   - a River worker whose args type declares unique insertion by args (UniqueJob) has the
//     key of its unprotected effects: a duplicate insert is turned away, a retry is not.
//   - a handler whose job its queue never runs again (AtMostOnce) has no effect findings:
//     a retry duplicate cannot happen.
//   - ttl: a handler wrapped by the runtime middleware needs an explicit retention.
//   - partial: effects on two or more systems that do not commit together (some effect is
//     not safe to repeat, and the job's completion is not stored in the handler's own
//     transaction) need recorded progress or a manual-review decision. Progress is recorded
//     for an effect inside a recovery point (a step: idempotency.Step), so a handler whose
//     unsafe effects are each inside one has partial answered; the step answers neither key
//     nor enforcement of its effect (a crash before the step's record repeats it). A
//     handler that asks for manual review (returns idempotency.NeedsReview, or is wrapped by
//     a middleware built WithNeedsReview) has partial answered too.
//
// effects are the handler's effects as reported (known ones only).
func judge(h handlers.Handler, effects effect.Set, cfg checks.Config) verdict {
	declared := checks.Declared(h)
	partialWhy := partialReason(h, effects)
	ttl := h.Wrapped && !h.Retention
	var v verdict
	open := map[checklist.Decision]bool{}
	for _, e := range effects {
		if !unsafe(h, e) || cfg.Disabled[e.Kind] || h.AtMostOnce != "" {
			continue // (an at-most-once job is never run again by its queue)
		}
		e, missing := open1(h, e)
		if partialWhy != "" {
			missing = append(missing, checklist.Partial)
		}
		if ttl {
			missing = append(missing, checklist.TTL)
		}
		checklist.Sort(missing)
		missing = cfg.Required.Only(missing)
		if len(missing) == 0 {
			continue // every open decision is one the project does not require
		}
		for _, m := range missing {
			open[m] = true
		}
		f := openEffect{Effect: e, Missing: missing}
		if slices.Contains(missing, checklist.Partial) {
			f.PartialWhy = partialWhy
		}
		if slices.Contains(missing, checklist.TTL) {
			f.TTLWhy = "its middleware keeps completions for its default retention"
		}
		if declared != nil {
			if c := contradiction(declared, e); c != "" {
				f.Contradiction = c
			} else {
				var answered bool
				f.Missing, answered = answeredAway(f.Missing, declared)
				if answered {
					v.Used = append(v.Used, h.Decisions)
				}
				if len(f.Missing) == 0 {
					continue
				}
			}
		}
		v.Findings = append(v.Findings, f)
	}
	if ttl && h.AtMostOnce == "" && len(v.Findings) == 0 && !declared.Answers(string(checklist.TTL)) && cfg.Required[checklist.TTL] {
		// All effects are covered, but the middleware's retention is left to its default.
		open[checklist.TTL] = true
		v.Findings = append(v.Findings, openEffect{
			Effect:    effect.Effect{Kind: effect.Kind(rules.Decisions), Detail: "the idempotency middleware wraps it without an explicit completion retention (WithRetention)"},
			Missing:   []checklist.Decision{checklist.TTL},
			Synthetic: true,
		})
	}
	if declared != nil && declared.Key != "" && !payloadHas(h, declared.Key) {
		v.Problems = append(v.Problems, checks.Verdict{
			Pos:      h.Decisions.Pos,
			Category: rules.Decisions,
			Message:  fmt.Sprintf("//idemlint:decisions key=%s names nothing in %s's job: no parameter, payload field or job ID of that name", declared.Key, h.Name),
		})
	}
	for _, d := range checklist.Order {
		if open[d] {
			v.Open = append(v.Open, d)
		}
	}
	return v
}

// unsafe reports whether effect e of handler h is not safe to repeat by the code alone: not
// protected, not behind a claim the code checks first (a redelivery is turned away; a crash
// after the claim loses the effect rather than repeating it: at most once, shown so in the
// inventory), and not a write that commits with the transaction storing the job's
// completion, or with the transaction that records its step (sqlstore.StepTx).
func unsafe(h handlers.Handler, e effect.Effect) bool {
	if e.State == effect.Protected || e.State == effect.Claimed || e.Conditional() {
		return false
	}
	if e.Step == effect.InTxStep && commitsWithTx(e) {
		return false // a write in the transaction that records its step commits with the record
	}
	// A write in the transaction that stores the job's completion commits with it.
	return !h.TxCompletion || !commitsWithTx(e)
}

// AddOthers sets, on each effect finding of v, the handler's other sinks of its kind that
// are not safe to repeat (from Handler.Reached). The finding's own sink is the worst of
// them, as solved.
func (v *verdict) AddOthers(h handlers.Handler) {
	for i := range v.Findings {
		f := &v.Findings[i]
		if f.Synthetic {
			continue
		}
		own := callgraph.SinkID(f.Effect)
		for _, r := range h.Reached[f.Effect.Kind] {
			if callgraph.SinkID(r.Effect) != own && unsafe(h, r.Effect) {
				f.Others = append(f.Others, r)
			}
		}
	}
}

// open1 returns the decisions an unprotected effect leaves open before partial and ttl, and
// the effect with what the handler's wrapping and deduplication add to its detail.
func open1(h handlers.Handler, e effect.Effect) (effect.Effect, []checklist.Decision) {
	missing := checks.Missing(e.State)
	if h.Wrapped {
		switch {
		case !checks.External(e.Kind) && h.TxCompletion:
			e.Detail += "; the idempotency middleware claims this handler, but the write commits outside the transaction that stores the completion, so a crash between them repeats it"
		case !checks.External(e.Kind):
			e.Detail += "; the idempotency middleware claims this handler, but a crash between the write and its completion marker repeats it (store the completion in the same transaction: sqlstore CompleteTx)"
		default:
			e.Detail += "; the idempotency middleware claims this handler, but a crash after the external effect repeats it"
		}
		missing = []checklist.Decision{checklist.Enforcement}
	}
	if e.Step != effect.NoStep {
		// The step records the effect's result once it succeeds: a redelivery after a
		// later failure resumes after it (partial is answered), but a crash between the
		// effect and its record runs it again, so key and enforcement stay as they are.
		e.Detail += "; it runs in a step, whose recovery point records it once it succeeds, but a crash before the record repeats it"
	}
	if h.UniqueJob != "" && e.State == effect.Unprotected && !h.Wrapped {
		// River turns away a second insert of the same args: the job has a stable
		// identity, which answers the key. It does not stop River retrying the job after
		// an error or a crash mid-handler, which repeats the effect: enforcement is open.
		e.Detail += "; " + h.UniqueJob + ", which answers the key but does not stop a retry of the job from repeating this"
		missing = []checklist.Decision{checklist.Enforcement}
	}
	if h.Dedup != "" {
		// The router drops a redelivery only while the process that saw the message runs,
		// on that instance, within the window; and it marks the message before the handler
		// runs. Nothing it does answers a decision.
		e.Detail += "; " + h.Dedup + " deduplicates in memory only (lost on restart, not shared between instances)"
	}
	return e, missing
}

// commitsWithTx reports whether an effect commits with the handler's database transaction,
// for a handler that stores its job's completion in it: a write made on a transaction or a
// job inserted through one, and a database write whose connection is not known (a
// repository interface may be handed the transaction). A write on a pool commits on its
// own; an external effect (HTTP, email, payment, publish) cannot roll back.
func commitsWithTx(e effect.Effect) bool {
	return e.Tx == effect.TxIn || (!checks.External(e.Kind) && e.Tx == effect.TxUnknown)
}

// partialReason says why the partial decision is open for the handler, or "" when it is
// not (partialOpen): the kinds of its effects, which do not commit together.
func partialReason(h handlers.Handler, effects effect.Set) string {
	if !partialOpen(h, effects) {
		return ""
	}
	var kinds []string
	for _, k := range effect.Kinds {
		for _, e := range effects {
			if e.Kind == k {
				kinds = append(kinds, string(k))
				break
			}
		}
	}
	if len(kinds) < 2 {
		return "its effects do not commit together"
	}
	return strings.Join(kinds[:len(kinds)-1], ", ") + " and " + kinds[len(kinds)-1] + " do not commit together"
}

// partialOpen reports whether the handler's effects span two or more systems with at least
// one not safe to repeat outside a recovery point (a step), the job's completion is not
// committed with its database writes, and the handler does not ask for manual review.
func partialOpen(h handlers.Handler, effects effect.Set) bool {
	if h.TxCompletion || h.Review != "" || len(effects) < 2 {
		return false
	}
	for _, e := range effects {
		if e.State == effect.Protected {
			continue
		}
		if e.Step == effect.NoStep {
			return true
		}
		// The kind's worst effect is inside a step (one outside of the same state would
		// have been kept instead), but another of its sinks, less bad, may be outside one.
		for _, r := range h.Reached[e.Kind] {
			if r.Effect.State != effect.Protected && r.Effect.Step == effect.NoStep && !r.Effect.Conditional() {
				return true
			}
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

// answeredAway removes from missing what the declaration answers, and reports whether it
// answered any.
func answeredAway(missing []checklist.Decision, d *directive.Decisions) ([]checklist.Decision, bool) {
	var out []checklist.Decision
	answered := false
	for _, m := range missing {
		if d.Answers(string(m)) {
			answered = true
			continue
		}
		out = append(out, m)
	}
	return out, answered
}

// payloadHas reports whether name ("OrderID", "job.ID", "Args.OrderID") names something of
// the handler's job: a parameter, or a field (at any depth, through embedding and pointers)
// of a parameter's type or of a variable the handler decodes the payload into.
func payloadHas(h handlers.Handler, name string) bool {
	last := name[strings.LastIndex(name, ".")+1:]
	var candidates []types.Type
	if sig := h.Sig; sig != nil {
		for i := 0; i < sig.Params().Len(); i++ {
			p := sig.Params().At(i)
			if strings.EqualFold(p.Name(), last) {
				return true
			}
			candidates = append(candidates, p.Type())
		}
	}
	candidates = append(candidates, h.Locals...)
	seen := map[types.Type]bool{}
	for _, t := range candidates {
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
	if named, ok := types.Unalias(defuse.Deref(t)).(*types.Named); ok {
		// The job ID is a method on some frameworks' types (GetTaskID is a function).
		for i := 0; i < named.NumMethods(); i++ {
			if strings.EqualFold(named.Method(i).Name(), name) {
				return true
			}
		}
	}
	st, ok := defuse.Deref(t).Underlying().(*types.Struct)
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

package decisions

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/checklist"
	"github.com/chokaq/idemlint/internal/checks"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/handlers"
	"github.com/chokaq/idemlint/internal/rules"
)

// The check is tested here on handlers written as plain values, without a package to
// type-check: each case states the effects a handler has and what the check must say.

var (
	insert = effect.Effect{Kind: effect.SQLWrite, State: effect.Unprotected, Detail: "SQL write not safe to repeat: INSERT without conflict handling",
		Chain: []effect.Hop{{Func: "(*sql.DB).ExecContext", Pos: "h.go:12"}}, Tx: effect.TxOutside}
	insertTx = effect.Effect{Kind: effect.SQLWrite, State: effect.Unprotected, Detail: "SQL write not safe to repeat: INSERT without conflict handling",
		Chain: []effect.Hop{{Func: "(*sql.Tx).ExecContext", Pos: "h.go:12"}}, Tx: effect.TxIn}
	mail = effect.Effect{Kind: effect.EmailSend, State: effect.Unprotected, Detail: "email sent with no deduplication",
		Chain: []effect.Hop{{Func: "notify.send", Pos: "h.go:20"}, {Func: "(*smtp.Client).Data", Pos: "n.go:8"}}}
	charge = effect.Effect{Kind: effect.Payment, State: effect.Protected, Detail: "payment with a stable idempotency key",
		Chain: []effect.Hop{{Func: "(*paymentintent.Client).New", Pos: "h.go:30"}}}
	claimedMail = effect.Effect{Kind: effect.EmailSend, State: effect.Claimed,
		Detail: "email sent with no deduplication; the conditional UPDATE gate at h.go:15 turns a redelivery away, but a crash between the claim and this effect loses it (at most once)",
		Chain:  []effect.Hop{{Func: "notify.send", Pos: "h.go:20"}}}
	randomKey = effect.Effect{Kind: effect.Payment, State: effect.UnstableKey, Detail: "payment keyed by uuid.NewString",
		Chain: []effect.Hop{{Func: "(*paymentintent.Client).New", Pos: "h.go:30"}}}
)

// inStep returns e inside a recovery point (idempotency.Step).
func inStep(e effect.Effect) effect.Effect {
	e.Step = effect.InStep
	return e
}

// handler returns a handler named H, declared at 100 with its body at 110, whose effects
// enter through calls at 200, 201, ... in the order given.
func handler(effects ...effect.Effect) handlers.Handler {
	h := handlers.Handler{Name: "H", Framework: "asynq", Pos: 100, Body: 110, Decl: &handlers.Decl{Start: 99}, Paths: map[effect.Kind]handlers.Path{}}
	for i, e := range effects {
		h.Effects = append(h.Effects, e)
		h.Paths[e.Kind] = handlers.Path{Call: token.Pos(200 + i)}
	}
	return h
}

// declare gives h a //idemlint:decisions directive with d.
func declare(h *handlers.Handler, d directive.Decisions) *directive.Directive {
	h.Decisions = &directive.Directive{Pos: 90, Verb: "decisions", Decisions: &d, Reason: "why"}
	return h.Decisions
}

func all() checks.Config { return checks.Config{Required: checklist.All()} }

func missing(f openEffect) string { return strings.Join(checklist.Names(f.Missing), ",") }

func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		name string
		h    func() handlers.Handler
		cfg  checks.Config
		want []string // per finding: "kind missing,..."; a contradiction: "kind !"
	}{
		{"one unprotected write", func() handlers.Handler { return handler(insert) }, all(), []string{"sql.write key,enforcement"}},
		{"a protected effect is no finding", func() handlers.Handler { return handler(charge) }, all(), nil},
		{"an unstable key misses the key only", func() handlers.Handler { return handler(randomKey) }, all(), []string{"payment key"}},
		{"two systems: partial", func() handlers.Handler { return handler(insert, mail) }, all(),
			[]string{"sql.write key,enforcement,partial", "email.send key,enforcement,partial"}},
		{"an effect behind a claim checked first is no finding (at most once)", func() handlers.Handler { return handler(claimedMail) }, all(), nil},
		{"a claimed effect still makes two systems", func() handlers.Handler { return handler(insert, claimedMail) }, all(),
			[]string{"sql.write key,enforcement,partial"}},
		{"a protected effect still makes two systems", func() handlers.Handler { return handler(insert, charge) }, all(),
			[]string{"sql.write key,enforcement,partial"}},
		{"the transaction stores the completion: its write commits with it", func() handlers.Handler {
			h := handler(insertTx)
			h.TxCompletion = true
			return h
		}, all(), nil},
		{"the completion's transaction does not cover the pool's write", func() handlers.Handler {
			h := handler(insert)
			h.TxCompletion = true
			return h
		}, all(), []string{"sql.write key,enforcement"}},
		{"wrapped: external effects miss enforcement, and the default retention ttl", func() handlers.Handler {
			h := handler(mail)
			h.Wrapped = true
			return h
		}, all(), []string{"email.send enforcement,ttl"}},
		{"wrapped with an explicit retention: enforcement only", func() handlers.Handler {
			h := handler(mail)
			h.Wrapped, h.Retention = true, true
			return h
		}, all(), []string{"email.send enforcement"}},
		{"wrapped with every effect covered: the retention alone", func() handlers.Handler {
			h := handler(insertTx)
			h.Wrapped, h.TxCompletion = true, true
			return h
		}, all(), []string{"decisions ttl"}},
		{"a job its queue never runs again has no findings", func() handlers.Handler {
			h := handler(insert, mail)
			h.AtMostOnce = "every insert sets MaxAttempts 1"
			return h
		}, all(), nil},
		{"a disabled kind is not reported", func() handlers.Handler { return handler(insert) },
			checks.Config{Required: checklist.All(), Disabled: map[effect.Kind]bool{effect.SQLWrite: true}}, nil},
		{"only the required decisions", func() handlers.Handler { return handler(insert, mail) },
			checks.Config{Required: checklist.Set{checklist.Key: true}}, []string{"sql.write key", "email.send key"}},
		{"a finding with nothing required left is dropped", func() handlers.Handler { return handler(randomKey) },
			checks.Config{Required: checklist.Set{checklist.Partial: true}}, nil},
		{"a declaration answers what it names", func() handlers.Handler {
			h := handler(insert, mail)
			declare(&h, directive.Decisions{Key: "OrderID", Enforce: "outbox"})
			return h
		}, all(), []string{"sql.write partial", "email.send partial"}},
		{"a declaration that answers everything leaves no finding", func() handlers.Handler {
			h := handler(insert)
			declare(&h, directive.Decisions{Key: "OrderID", Enforce: "outbox"})
			return h
		}, all(), nil},
		{"every unsafe effect in a step: partial is answered, key and enforcement are not", func() handlers.Handler {
			return handler(inStep(insert), inStep(mail))
		}, all(), []string{"sql.write key,enforcement", "email.send key,enforcement"}},
		{"a step's effect and one outside any step: partial stays open", func() handlers.Handler {
			return handler(insert, inStep(mail))
		}, all(), []string{"sql.write key,enforcement,partial", "email.send key,enforcement,partial"}},
		{"a step's effect and a safe one outside: partial is answered", func() handlers.Handler {
			return handler(inStep(mail), charge)
		}, all(), []string{"email.send key,enforcement"}},
		{"the kind's worst sink in a step, another of its sinks outside one: partial stays open", func() handlers.Handler {
			h := handler(inStep(insert), inStep(mail))
			h.Reached = map[effect.Kind][]callgraph.Reached{effect.SQLWrite: {{Effect: inStep(insert)}, {Effect: func() effect.Effect {
				e := insert
				e.State, e.Chain = effect.UnstableKey, []effect.Hop{{Func: "(*sql.DB).ExecContext", Pos: "h.go:40"}}
				return e
			}()}}}
			return h
		}, all(), []string{"sql.write key,enforcement,partial", "email.send key,enforcement,partial"}},
		{"a write on the transaction a tx step records in commits with the record", func() handlers.Handler {
			e := insertTx
			e.Step = effect.InTxStep
			return handler(e, inStep(mail))
		}, all(), []string{"email.send key,enforcement"}},
		{"a write on the pool in a tx step does not", func() handlers.Handler {
			e := insert
			e.Step = effect.InTxStep
			return handler(e)
		}, all(), []string{"sql.write key,enforcement"}},
		{"a handler that asks for manual review: partial is answered", func() handlers.Handler {
			h := handler(insert, mail)
			h.Review = "returns idempotency.NeedsReview"
			return h
		}, all(), []string{"sql.write key,enforcement", "email.send key,enforcement"}},
		{"an upsert declared over an INSERT is contradicted", func() handlers.Handler {
			h := handler(insert)
			declare(&h, directive.Decisions{Key: "OrderID", Enforce: "upsert"})
			return h
		}, all(), []string{"sql.write !"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.h()
			v := judge(h, h.Effects.Known(), tc.cfg)
			var got []string
			for _, f := range v.Findings {
				s := string(f.Effect.Kind) + " " + missing(f)
				if f.Contradiction != "" {
					s = string(f.Effect.Kind) + " !"
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("findings = %q, want %q", got, tc.want)
			}
		})
	}
}

// A declaration is used when it answers a decision of a finding, and only then: the
// directives check reports the others as unused.
func TestDeclarationUsed(t *testing.T) {
	h := handler(insert)
	d := declare(&h, directive.Decisions{Partial: "manual-review"})
	if v := judge(h, h.Effects.Known(), all()); len(v.Used) != 0 {
		t.Errorf("a declaration answering nothing open was used: %v", v.Used)
	}
	h = handler(insert, mail)
	d = declare(&h, directive.Decisions{Partial: "manual-review"})
	v := judge(h, h.Effects.Known(), all())
	if !slices.Contains(v.Used, d) {
		t.Errorf("the declaration answered partial but is not used: %v", v.Used)
	}
	if len(v.Findings) != 2 || missing(v.Findings[0]) != "key,enforcement" {
		t.Errorf("findings = %+v", v.Findings)
	}
}

// A declared key must name something of the handler's job.
func TestDeclaredKeyNamesThePayload(t *testing.T) {
	h := handler(insert)
	declare(&h, directive.Decisions{Key: "OrderID", Enforce: "outbox"})
	v := judge(h, h.Effects.Known(), all())
	if len(v.Problems) != 1 || v.Problems[0].Category != rules.Decisions || v.Problems[0].Pos != 90 ||
		!strings.Contains(v.Problems[0].Message, "key=OrderID names nothing in H's job") {
		t.Fatalf("problems = %+v", v.Problems)
	}
}

// Run places a finding on the call in the handler's body that leads to its effect, or on
// the body when none does, walks its in-package hops as related information, and records
// the structured finding for its handler.
func TestRunPlacesFindings(t *testing.T) {
	h := handler(insert, mail)
	h.Paths[effect.EmailSend] = handlers.Path{Call: 300, Hops: []handlers.Hop{{Pos: 400, Func: "notify.send"}}}
	h.Paths[effect.SQLWrite] = handlers.Path{}
	out := Check.Run(&checks.Input{Handlers: []handlers.Handler{h}, Config: all(), Fset: token.NewFileSet(), Files: []*ast.File{}})
	if len(out.Verdicts) != 2 {
		t.Fatalf("verdicts = %+v", out.Verdicts)
	}
	sql, email := out.Verdicts[0], out.Verdicts[1]
	if sql.Pos != h.Body || sql.Category != rules.Category(effect.SQLWrite) {
		t.Errorf("a finding without a call in the body goes to the body: %+v", sql)
	}
	if email.Pos != 300 || len(email.Related) != 1 || email.Related[0].Pos != 400 || email.Related[0].Message != "via notify.send" {
		t.Errorf("email finding = %+v", email)
	}
	want := "handler H: email sent with no deduplication (H -> notify.send -> (*smtp.Client).Data); missing: key, enforcement, partial (sql.write and email.send do not commit together)"
	if email.Message != want {
		t.Errorf("message = %q\nwant      %q", email.Message, want)
	}
	if f := email.Finding; f == nil || f.Handler != 0 || f.Effect.Kind != effect.EmailSend {
		t.Errorf("structured finding = %+v", email.Finding)
	}
}

// Two handlers that reach the same sink say so, each naming the other.
func TestRunSharedSinks(t *testing.T) {
	a, b := handler(insert), handler(insert)
	a.Name, b.Name, b.Pos = "A", "B", 150
	out := Check.Run(&checks.Input{Handlers: []handlers.Handler{a, b}, Config: all(), Fset: token.NewFileSet()})
	if len(out.Verdicts) != 2 {
		t.Fatalf("verdicts = %+v", out.Verdicts)
	}
	if !strings.Contains(out.Verdicts[0].Message, "handler B reaches it too") || !strings.Contains(out.Verdicts[1].Message, "handler A reaches it too") {
		t.Errorf("messages = %q, %q", out.Verdicts[0].Message, out.Verdicts[1].Message)
	}
	if r := out.Verdicts[0].Related; len(r) != 1 || r[0].Pos != 150 {
		t.Errorf("related = %+v: want B's declaration", r)
	}
}

// A function of another package registered here is reported at its registration, from its
// fact's effects, and indexed after the package's own handlers.
func TestRunRemote(t *testing.T) {
	out := Check.Run(&checks.Input{
		Handlers: []handlers.Handler{handler(charge)},
		Remote: []handlers.Remote{{Pos: 500, Framework: "temporal", Effects: effect.Set{insert},
			Fn: types.NewFunc(42, types.NewPackage("example.com/billing", "billing"), "Charge", types.NewSignatureType(nil, nil, nil, nil, nil, false))}},
		Config: all(),
	})
	if len(out.Verdicts) != 1 {
		t.Fatalf("verdicts = %+v", out.Verdicts)
	}
	v := out.Verdicts[0]
	if v.Pos != 500 || v.Finding == nil || v.Finding.Handler != 1 || !strings.HasPrefix(v.Message, "handler billing.Charge: ") || !strings.HasSuffix(v.Message, "(registered here)") {
		t.Errorf("remote verdict = %+v", v)
	}
	if len(v.Related) != 1 || v.Related[0].Pos != 42 || v.Related[0].Message != "handler billing.Charge declared here" {
		t.Errorf("remote verdict's related information = %+v, want the handler's declaration", v.Related)
	}
}

// A function of another package registered here is judged as its own package would judge
// it: partial for two systems, and the runtime middleware's wrap at the registration.
func TestRunRemoteJudged(t *testing.T) {
	fn := types.NewFunc(token.NoPos, types.NewPackage("example.com/tasks", "tasks"), "Send", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	for _, c := range []struct {
		name string
		r    handlers.Remote
		want []string // per verdict: the message's missing list
	}{
		{"two systems", handlers.Remote{Fn: fn, Pos: 500, Framework: "asynq", Effects: effect.Set{insert, mail}},
			[]string{"key, enforcement, partial (sql.write and email.send do not commit together)", "key, enforcement, partial (sql.write and email.send do not commit together)"}},
		{"wrapped with a retention", handlers.Remote{Fn: fn, Pos: 500, Framework: "asynq", Effects: effect.Set{mail}, Wrapped: true, Retention: true},
			[]string{"enforcement"}},
		{"wrapped with the default retention", handlers.Remote{Fn: fn, Pos: 500, Framework: "asynq", Effects: effect.Set{mail}, Wrapped: true},
			[]string{"enforcement, ttl (its middleware keeps completions for its default retention)"}},
		{"wrapped, the write in the completion's transaction", handlers.Remote{Fn: fn, Pos: 500, Framework: "asynq", Effects: effect.Set{insertTx},
			Wrapped: true, Retention: true, TxCompletion: true}, nil},
	} {
		out := Check.Run(&checks.Input{Remote: []handlers.Remote{c.r}, Config: all()})
		var got []string
		for _, v := range out.Verdicts {
			_, m, _ := strings.Cut(v.Message, "; missing: ")
			got = append(got, strings.TrimSuffix(m, " (registered here)"))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: missing = %q, want %q", c.name, got, c.want)
		}
	}
}

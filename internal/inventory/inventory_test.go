package inventory_test

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chokaq/idemlint/internal/inventory"
	"github.com/chokaq/idemlint/internal/result"
)

func sampleRun() *result.Run {
	pos := func(file string, line int) result.Position {
		return result.Position{Path: "/r/" + file, File: file, Line: line, Column: 2}
	}
	ignore := &result.Directive{Package: "p", Pos: pos("p/h.go", 30), Verb: "ignore", Kinds: []string{"http.write"}, Reason: "partner dedups | by ref", Used: true}
	finding := &result.Finding{
		Category: "sql.write", Message: "handler (*W).Work: INSERT (x); missing: key, enforcement", Package: "p",
		Pos: pos("p/h.go", 12), Handler: "(*W).Work", HandlerPos: pos("p/h.go", 10), Framework: "river",
		State: "unprotected", Missing: []string{"key", "enforcement"}, Known: true,
	}
	return &result.Run{
		Tool:     result.Tool{Name: "idemlint", Version: "v9"},
		Packages: 7,
		Findings: []*result.Finding{finding, {Category: "directive", Message: "//idemlint:ignore needs a reason", Package: "p", Pos: pos("p/x.go", 3)}},
		Handlers: []*result.FoundHandler{
			{Name: "(*W).Work", Package: "p", Framework: "river", Pos: pos("p/h.go", 10), Effects: []result.Effect{
				{Kind: "sql.write", State: "unprotected", Detail: "INSERT", Reported: true, Missing: []string{"key", "enforcement"}, Chain: []result.Hop{{Func: "(*pgxpool.Pool).Exec"}}},
				{Kind: "payment", State: "protected", Detail: "payment with an idempotency key"},
				{Kind: "store.write", State: "claimed", Detail: "Redis INCR sent with no deduplication; the Redis SETNX gate at h.go:11 turns a redelivery away, but a crash between the claim and this effect loses it (at most once)"},
				{Kind: "publish", State: "keyed", Detail: "RabbitMQ message with a message id", Reported: true, Missing: []string{"enforcement"}},
			}},
			{Name: "Gated", Package: "q", Framework: "asynq", Pos: pos("q/s.go", 90), Effects: []result.Effect{
				{Kind: "email.send", State: "claimed", Detail: "email sent with no deduplication; the conditional UPDATE gate at s.go:91 turns a redelivery away, but a crash between the claim and this effect loses it (at most once)"},
			}},
			{Name: "Looked", Package: "q", Framework: "river", Pos: pos("q/s.go", 60), Effects: []result.Effect{
				{Kind: "http.write", State: "claimed", Detail: "HTTP POST without an Idempotency-Key header; the existence check GetByJobID at s.go:61 turns a redelivery away once what it looks up is written: a crash before that runs this effect again, and two deliveries at once both pass it"},
			}},
			{Name: "Ping", Package: "p", Framework: "asynq", Pos: pos("p/h.go", 28), Directives: []*result.Directive{ignore}},
			{Name: "Sync", Package: "q", Framework: "asynq", Pos: pos("q/s.go", 5), Effects: []result.Effect{
				{Kind: "email.send", State: "unprotected", Detail: "email", Disabled: true},
			}},
			{Name: "Wrapped", Package: "q", Framework: "asynq", Wrapped: true, Pos: pos("q/s.go", 50), Effects: []result.Effect{
				{Kind: "sql.write", State: "unprotected", Detail: "INSERT"},
			}},
			{Name: "Once", Package: "q", Framework: "river", AtMostOnce: "River job q.OnceArgs is inserted only with MaxAttempts 1", Pos: pos("q/s.go", 70), Effects: []result.Effect{
				{Kind: "http.write", State: "unprotected", Detail: "HTTP POST"},
			}},
		},
		Directives: []*result.Directive{ignore},
	}
}

func TestBuild(t *testing.T) {
	v := inventory.Build("t", sampleRun())
	s := v.Summary
	if s.Handlers != 7 || s.WithFindings != 1 || s.Protected != 4 || s.Unchecked != 1 || s.Declared != 1 || s.Findings != 2 || s.Known != 1 || s.Directives != 1 {
		t.Errorf("summary %+v", s)
	}
	if len(v.Frameworks) != 2 || v.Frameworks[0].Name != "asynq" || len(v.Frameworks[0].Packages) != 2 {
		t.Errorf("grouping: %+v", v.Frameworks)
	}
	status := map[string]string{}
	decisions := map[string]string{}
	guards := map[string]string{}
	for _, h := range v.Handlers {
		status[h.Name] = h.Status
		for _, e := range h.Effects {
			decisions[h.Name+" "+e.Kind] = e.Key + "/" + e.Enforcement
			guards[h.Name+" "+e.Kind] = e.Guard
		}
	}
	if g := guards["Once http.write"]; !strings.HasPrefix(g, "at most once: River job q.OnceArgs") {
		t.Errorf("guard of an at-most-once job's effect: %q", g)
	}
	if g := guards["(*W).Work store.write"]; g != "at most once after a crash (claims first): the Redis SETNX gate at h.go:11 turns a redelivery away, but a crash between the claim and this effect loses it (at most once)" {
		t.Errorf("guard of a claimed effect: %q", g)
	}
	// A read before the write claims nothing: a crash before its record repeats the effect,
	// so the handler is protected, not at most once.
	if g := guards["Looked http.write"]; g != "checked first (a read before the write): the existence check GetByJobID at s.go:61 turns a redelivery away once what it looks up is written: a crash before that runs this effect again, and two deliveries at once both pass it" {
		t.Errorf("guard of an effect behind an existence check: %q", g)
	}
	if g := guards["(*W).Work publish"]; g != "a message id its consumers must deduplicate by" {
		t.Errorf("guard of a keyed publish: %q", g)
	}
	for name, want := range map[string]string{"(*W).Work": "findings", "Ping": "declared", "Sync": "not checked", "Wrapped": "protected", "Once": "at most once", "Gated": "at most once", "Looked": "protected"} {
		if status[name] != want {
			t.Errorf("%s: status %q, want %q", name, status[name], want)
		}
	}
	for k, want := range map[string]string{
		"(*W).Work sql.write":   "missing/missing",
		"(*W).Work payment":     "answered/answered",
		"(*W).Work store.write": "answered/answered",       // a SETNX gate's claim: at most once
		"(*W).Work publish":     "answered/missing",        // a message id only consumers check
		"Sync email.send":       "not checked/not checked", // -disable: not a decision
		"Wrapped sql.write":     "answered/answered",       // the middleware's claim
	} {
		if decisions[k] != want {
			t.Errorf("%s: %q, want %q", k, decisions[k], want)
		}
	}
}

func TestMarkdownEscapes(t *testing.T) {
	var b strings.Builder
	if err := inventory.Markdown(&b, inventory.Build("t", sampleRun())); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if !strings.Contains(md, `partner dedups \| by ref`) {
		t.Errorf("a pipe in a reason must not split the table cell:\n%s", md)
	}
	if !strings.Contains(md, `**(\*W).Work**`) {
		t.Errorf("handler name not escaped:\n%s", md)
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| ") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") < 3 {
			t.Errorf("broken table row: %s", line)
		}
	}
}

func TestHTML(t *testing.T) {
	var b strings.Builder
	if err := inventory.HTML(&b, inventory.Build(`<script>alert(1)</script>`, sampleRun())); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if strings.Contains(page, "<script>alert(1)") {
		t.Errorf("title not escaped")
	}
	if n := strings.Count(page, `<tr class="handler"`); n != 7 {
		t.Errorf("%d handler rows, want 7", n)
	}
	for _, want := range []string{`data-status="declared"`, `data-status="at most once"`, "runs at most once", `data-kinds="sql.write payment store.write publish"`, `id="filter"`, "1 in baseline"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// Every checklist decision has its column: ttl and partial beside key and enforcement (ttl
// n/a where nothing is retained: no middleware, no declared ttl); a handler without effects in a package with directives that hide callees' effects says
// so; the filter box is wide enough for its placeholder.
func TestDecisionsNoteAndFilter(t *testing.T) {
	run := sampleRun()
	run.Handlers[0].Effects[0].Missing = []string{"key", "enforcement", "partial"}
	idem := &result.Directive{Package: "r", Pos: result.Position{Path: "/r/r/c.go", File: "r/c.go", Line: 4}, Verb: "idempotent", Reason: "upserts", Used: true}
	run.Directives = append(run.Directives, idem)
	run.Handlers = append(run.Handlers, &result.FoundHandler{Name: "Quiet", Package: "r", Framework: "asynq", Pos: result.Position{Path: "/r/r/q.go", File: "r/q.go", Line: 9}})
	v := inventory.Build("t", run)
	var quiet *inventory.Row
	for _, h := range v.Handlers {
		if h.Name == "(*W).Work" {
			e := h.Effects[0]
			if got := e.Key + "/" + e.Enforcement + "/" + e.TTL + "/" + e.Partial; got != "missing/missing/n/a/missing" {
				t.Errorf("decisions of (*W).Work sql.write: %s", got)
			}
		}
		if h.Name == "Quiet" {
			quiet = h
		}
	}
	if quiet == nil || quiet.Status != "no effects" || !strings.Contains(quiet.Note, "declared safe: 1 //idemlint:idempotent in this package") {
		t.Fatalf("handler without effects beside an idempotent callee: %+v", quiet)
	}
	var html, md strings.Builder
	inventory.HTML(&html, v)
	inventory.Markdown(&md, v)
	for _, want := range []string{"Decisions (key / enforcement / ttl / partial)", `title="ttl: n/a"`, `title="partial: missing"`, quiet.Note} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	for _, want := range []string{"sql.write: missing / missing / n/a / missing", quiet.Note} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	// Under the middleware (whose markers expire) or with a declared ttl, ttl is answered.
	for name, change := range map[string]func(h *result.FoundHandler){
		"wrapped": func(h *result.FoundHandler) { h.Wrapped = true },
		"declaring ttl": func(h *result.FoundHandler) {
			h.Directives = []*result.Directive{{Verb: "decisions", Declares: "key=ID ttl=24h", Used: true}}
		},
	} {
		r := sampleRun()
		change(r.Handlers[0])
		i := slices.IndexFunc(inventory.Build("t", r).Handlers, func(h *inventory.Row) bool { return h.Name == "(*W).Work" })
		if i < 0 {
			t.Fatalf("%s: no row for (*W).Work", name)
		}
		if got := inventory.Build("t", r).Handlers[i].Effects[0].TTL; got != "answered" {
			t.Errorf("%s: ttl %s, want answered", name, got)
		}
	}
	m := regexp.MustCompile(`<input id="filter" type="search" size="(\d+)" placeholder="([^"]*)"`).FindStringSubmatch(html.String())
	if m == nil {
		t.Fatal("no sized filter box")
	}
	if size, _ := strconv.Atoi(m[1]); size < utf8.RuneCountInString(m[2])+2 {
		t.Errorf("filter box of %d characters cuts its placeholder %q", size, m[2])
	}
}

// A handler with no effect known that calls what the analysis could not follow says so, is
// counted apart from those without effects, and both renderings show it.
func TestNotFollowed(t *testing.T) {
	run := sampleRun()
	reason := "calls run, a function value nothing in view fills: its effects are not followed"
	run.Handlers = append(run.Handlers, &result.FoundHandler{Name: "func literal in wrap", Package: "r", Framework: "asynq",
		Pos: result.Position{Path: "/r/r/w.go", File: "r/w.go", Line: 3}, Partial: reason})
	v := inventory.Build("t", run)
	var row *inventory.Row
	for _, h := range v.Handlers {
		if h.Name == "func literal in wrap" {
			row = h
		}
	}
	if row == nil || row.Status != inventory.StatusNotFollowed || row.Note != reason {
		t.Fatalf("row = %+v, want status %q with the reason", row, inventory.StatusNotFollowed)
	}
	base := inventory.Build("t", sampleRun())
	if v.Summary.NotFollowed != 1 || v.Summary.NoEffects != base.Summary.NoEffects {
		t.Errorf("summary %+v: want 1 not followed, no-effects count unchanged (%d)", v.Summary, base.Summary.NoEffects)
	}
	var html, md strings.Builder
	inventory.HTML(&html, v)
	inventory.Markdown(&md, v)
	if !strings.Contains(html.String(), `id="n-not-followed">1<`) || !strings.Contains(html.String(), `data-status="effects not followed"`) {
		t.Errorf("HTML lacks the not-followed card or row status")
	}
	if !strings.Contains(md.String(), "Effects not followed: 1 ") || !strings.Contains(md.String(), "| effects not followed |") {
		t.Errorf("Markdown lacks the not-followed count or row status:\n%s", md.String())
	}
}

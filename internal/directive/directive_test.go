package directive

import (
	"go/ast"
	"go/token"
	"strings"
	"testing"
	"time"
)

func parse(text string) (*Directive, bool) {
	return Parse(&ast.Comment{Slash: 1, Text: text}, token.NewFileSet())
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		text   string
		ok     bool
		verb   Verb
		kinds  string
		reason string
		err    string // substring; "" means well-formed
	}{
		{text: "// not a directive", ok: false},
		{text: "// idemlint:ignore sql.write -- spaced", ok: false},
		{text: "//idemlint:ignore sql.write -- dedup by key", ok: true, verb: Ignore, kinds: "sql.write", reason: "dedup by key"},
		{text: "//idemlint:ignore sql.write,email.send -- both", ok: true, verb: Ignore, kinds: "sql.write,email.send", reason: "both"},
		{text: "//idemlint:ignore sql.write, email.send -- spaced list", ok: true, verb: Ignore, kinds: "sql.write,email.send", reason: "spaced list"},
		{text: "//idemlint:ignore sql.write", ok: true, verb: Ignore, kinds: "sql.write", err: "needs a reason"},
		{text: "//idemlint:ignore sql.write --   ", ok: true, verb: Ignore, kinds: "sql.write", err: "needs a reason"},
		{text: "//idemlint:ignore -- why", ok: true, verb: Ignore, reason: "why", err: "needs the kinds"},
		{text: "//idemlint:idempotent -- converges", ok: true, verb: Idempotent, reason: "converges"},
		{text: "//idemlint:idempotent", ok: true, verb: Idempotent, err: "needs a reason"},
		{text: "//idemlint:idempotent sql.write -- x", ok: true, verb: Idempotent, reason: "x", err: "takes no arguments"},
		{text: "//idemlint:handler", ok: true, verb: Handler},
		{text: "//idemlint:handler -- consumed from NATS", ok: true, verb: Handler, reason: "consumed from NATS"},
		{text: "//idemlint:handler now", ok: true, verb: Handler, err: "takes no arguments"},
		{text: "//idemlint:", ok: true, err: "empty directive"},
		{text: "//idemlint:ignored sql.write -- x", ok: true, verb: "ignored", reason: "x", err: "unknown directive"},
		{text: "//idemlint:decisions key=OrderID enforce=upsert ttl=72h partial=manual-review -- orders are unique", ok: true, verb: DecisionsVerb, reason: "orders are unique"},
		{text: "//idemlint:decisions ttl=7d -- a week", ok: true, verb: DecisionsVerb, reason: "a week"},
		{text: "//idemlint:decisions key=OrderID", ok: true, verb: DecisionsVerb, err: "needs a reason"},
		{text: "//idemlint:decisions enforce=hope -- x", ok: true, verb: DecisionsVerb, reason: "x", err: "enforce=hope is not one of"},
		{text: "//idemlint:decisions ttl=soon -- x", ok: true, verb: DecisionsVerb, reason: "x", err: "ttl=soon is not a positive duration"},
		{text: "//idemlint:decisions ttl=-1h -- x", ok: true, verb: DecisionsVerb, reason: "x", err: "not a positive duration"},
		{text: "//idemlint:decisions partial=retry -- x", ok: true, verb: DecisionsVerb, reason: "x", err: "partial=retry is not one of"},
		{text: "//idemlint:decisions owner=me -- x", ok: true, verb: DecisionsVerb, reason: "x", err: "unknown field owner="},
		{text: "//idemlint:decisions key=A key=B -- x", ok: true, verb: DecisionsVerb, reason: "x", err: "key= given twice"},
		{text: "//idemlint:decisions key -- x", ok: true, verb: DecisionsVerb, reason: "x", err: "is not name=value"},
		{text: "//idemlint:decisions -- x", ok: true, verb: DecisionsVerb, reason: "x", err: "declares at least one"},
		{text: "//idemlint:decisions key=? enforce=? -- why", ok: true, verb: DecisionsVerb, reason: "why"},
	} {
		d, ok := parse(tc.text)
		if ok != tc.ok {
			t.Errorf("%q: ok = %v, want %v", tc.text, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if d.Verb != tc.verb || strings.Join(d.Kinds, ",") != tc.kinds || d.Reason != tc.reason {
			t.Errorf("%q: got verb %q kinds %q reason %q; want %q %q %q", tc.text, d.Verb, strings.Join(d.Kinds, ","), d.Reason, tc.verb, tc.kinds, tc.reason)
		}
		if (tc.err == "") != (d.Err == "") || !strings.Contains(d.Err, tc.err) {
			t.Errorf("%q: error %q, want one containing %q", tc.text, d.Err, tc.err)
		}
	}
}

// FuzzParse: any comment parses without a panic, and a directive is either well-formed
// with a verb the analyzer knows or carries an error to report.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"//idemlint:ignore sql.write -- r", "//idemlint:idempotent -- r", "//idemlint:handler", "//idemlint:", "//idemlint:ignore ,,, --", "//x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		d, ok := parse(text)
		if ok != strings.HasPrefix(text, Prefix) {
			t.Fatalf("%q: ok = %v", text, ok)
		}
		if !ok || d.Err != "" {
			return
		}
		switch d.Verb {
		case Ignore:
			if len(d.Kinds) == 0 || d.Reason == "" {
				t.Fatalf("%q: well-formed ignore without kinds or reason: %+v", text, d)
			}
		case Idempotent:
			if d.Reason == "" {
				t.Fatalf("%q: well-formed idempotent without reason", text)
			}
		case Handler:
		case DecisionsVerb:
			if d.Decisions == nil || d.Reason == "" {
				t.Fatalf("%q: well-formed decisions without fields or reason", text)
			}
		default:
			t.Fatalf("%q: unknown verb %q accepted", text, d.Verb)
		}
	})
}

func TestUndecidedAnswersNothing(t *testing.T) {
	d, _ := parse("//idemlint:decisions key=? enforce=? ttl=7d partial=? -- why")
	if d.Err != "" {
		t.Fatal(d.Err)
	}
	for _, decision := range []string{"key", "enforcement", "partial"} {
		if d.Decisions.Answers(decision) {
			t.Errorf("key=? answers %s", decision)
		}
	}
	if !d.Decisions.Answers("ttl") || d.Decisions.TTL != 7*24*time.Hour {
		t.Errorf("ttl=7d: %+v", d.Decisions)
	}
}

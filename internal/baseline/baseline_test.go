package baseline_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/baseline"
	"github.com/chokaq/idemlint/internal/result"
)

func f(handler, kind string, line int) *result.Finding {
	x := &result.Finding{Category: kind, Package: "example.com/p", Handler: handler,
		Message: "handler " + handler + ": " + kind,
		Pos:     result.Position{File: "p/h.go", Line: line},
		Chain:   []result.Hop{{Func: "sink"}}}
	x.Fingerprint = x.ComputeFingerprint()
	return x
}

func TestApply(t *testing.T) {
	recorded := []*result.Finding{f("A", "sql.write", 10), f("B", "payment", 20), f("lit", "sql.write", 30), f("lit", "sql.write", 40), f("Gone", "email.send", 50)}
	b, err := baseline.Parse(baseline.FromFindings(recorded).Marshal())
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Findings) != 4 {
		t.Fatalf("two identical findings share an entry: want 4 entries, got %d", len(b.Findings))
	}

	// Today: A moved, B unchanged, three identical literals (one more than recorded), Gone fixed, C new.
	today := []*result.Finding{f("A", "sql.write", 99), f("B", "payment", 20), f("lit", "sql.write", 30), f("lit", "sql.write", 41), f("lit", "sql.write", 42), f("C", "http.write", 60)}
	stale := b.Apply(today)
	var fresh []string
	for _, x := range today {
		if !x.Known {
			fresh = append(fresh, x.Handler)
		}
	}
	if strings.Join(fresh, ",") != "lit,C" {
		t.Errorf("new findings %v, want [lit C]", fresh)
	}
	if len(stale) != 1 || stale[0].Handler != "Gone" || stale[0].Missing != 1 {
		t.Errorf("stale %+v, want the Gone entry", stale)
	}
	if s := stale[0].String(); s != "handler Gone (example.com/p): email.send" {
		t.Errorf("stale.String() = %q", s)
	}

	// Fewer identical findings than recorded: the rest of the entry is stale.
	b2, _ := baseline.Parse(baseline.FromFindings(recorded).Marshal())
	stale = b2.Apply([]*result.Finding{f("lit", "sql.write", 1)})
	for _, s := range stale {
		if s.Handler == "lit" && s.Missing != 1 {
			t.Errorf("lit: %d missing, want 1", s.Missing)
		}
	}
}

// The file is deterministic: the same findings in another order give the same bytes.
func TestDeterministic(t *testing.T) {
	a := []*result.Finding{f("A", "sql.write", 1), f("B", "payment", 2), f("C", "email.send", 3)}
	b := []*result.Finding{a[2], a[0], a[1]}
	if string(baseline.FromFindings(a).Marshal()) != string(baseline.FromFindings(b).Marshal()) {
		t.Errorf("order of findings changes the file")
	}
}

func TestParseRejects(t *testing.T) {
	for name, data := range map[string]string{
		"not json":       "nope",
		"other version":  `{"version": 2, "findings": []}`,
		"unknown field":  `{"version": 1, "findings": [], "extra": 1}`,
		"no fingerprint": `{"version": 1, "findings": [{"kind": "payment", "message": "m"}]}`,
		"negative count": `{"version": 1, "findings": [{"fingerprint": "x", "count": -1, "kind": "payment", "message": "m"}]}`,
	} {
		if _, err := baseline.Parse([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// -write-baseline replaces a baseline (of any version) or creates one, and never overwrites
// another file named by mistake.
func TestReplaceable(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		content string // "" with absent: no file
		absent  bool
		ok      bool
	}{
		"absent":            {absent: true, ok: true},
		"empty":             {content: "\n", ok: true},
		"a baseline":        {content: `{"version": 1, "tool": "idemlint", "findings": []}`, ok: true},
		"an older baseline": {content: `{"version": 0, "tool": "idemlint"}`, ok: true},
		"a Go file":         {content: "package p\n"},
		"other JSON":        {content: `{"version": 1, "tool": "eslint"}`},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if !tc.absent {
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		err := baseline.Replaceable(path)
		if (err == nil) != tc.ok {
			t.Errorf("%s: Replaceable = %v, want ok %v", name, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "is not an idemlint baseline: not overwriting it") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

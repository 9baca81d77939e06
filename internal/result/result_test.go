package result_test

import (
	"testing"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/result"
)

func finding() *result.Finding {
	return &result.Finding{
		Category: "sql.write",
		Message:  "handler H: SQL write (H -> store.Add -> (*pgxpool.Pool).Exec); missing: key, enforcement",
		Pos:      result.Position{Path: "/r/a/h.go", File: "a/h.go", Line: 12, Column: 3},
		Package:  "example.com/a",
		Handler:  "H",
		Chain:    []result.Hop{{Func: "store.Add", At: "h.go:12"}, {Func: "(*pgxpool.Pool).Exec", At: "store.go:40"}},
	}
}

// A fingerprint survives what moves a finding (lines, columns, files, call positions, the
// wording of the detail) and changes with what makes it another finding.
func TestFingerprint(t *testing.T) {
	fp := finding().ComputeFingerprint()
	if len(fp) != 32 {
		t.Fatalf("fingerprint %q: want 32 hex digits", fp)
	}
	same := finding()
	same.Pos = result.Position{Path: "/r/a/other.go", File: "a/other.go", Line: 99, Column: 1}
	same.Chain[0].At, same.Chain[1].At = "other.go:99", "store.go:77"
	same.Message = "handler H: SQL write, reworded (H -> store.Add -> (*pgxpool.Pool).Exec); missing: key"
	same.State = "unstable-key"
	if got := same.ComputeFingerprint(); got != fp {
		t.Errorf("moving the finding changed its fingerprint")
	}
	// The mark of a cut chain (effect.Cut) was not shown before: a cut finding keeps the
	// fingerprint its baseline entry recorded.
	cut := finding()
	cut.Chain = []result.Hop{cut.Chain[0], {Func: effect.Cut}, cut.Chain[1]}
	if got := cut.ComputeFingerprint(); got != fp {
		t.Errorf("the mark of a cut chain changed its fingerprint")
	}
	for name, change := range map[string]func(*result.Finding){
		"handler": func(f *result.Finding) { f.Handler = "G" },
		"kind":    func(f *result.Finding) { f.Category = "payment" },
		"package": func(f *result.Finding) { f.Package = "example.com/b" },
		"chain":   func(f *result.Finding) { f.Chain[0].Func = "store.Put" },
		"shorter": func(f *result.Finding) { f.Chain = f.Chain[1:] },
	} {
		f := finding()
		change(f)
		if f.ComputeFingerprint() == fp {
			t.Errorf("a different %s gives the same fingerprint", name)
		}
	}

	// A directive problem is identified by its package, file name and message.
	d := &result.Finding{Category: "directive", Message: "//idemlint:ignore needs a reason", Package: "p",
		Pos: result.Position{File: "a/x.go", Line: 3}}
	moved := *d
	moved.Pos.Line = 30
	other := *d
	other.Pos.File = "a/y.go"
	if d.ComputeFingerprint() != moved.ComputeFingerprint() || d.ComputeFingerprint() == other.ComputeFingerprint() {
		t.Errorf("directive fingerprints: line must not count, file must")
	}
}

func TestPosition(t *testing.T) {
	for _, tc := range []struct {
		p      result.Position
		str    string
		inRoot bool
	}{
		{result.Position{Path: "/r/a.go", File: "a.go", Line: 3, Column: 7}, "/r/a.go:3:7", true},
		{result.Position{Path: "/r/a.go", File: "a.go", Line: 3}, "/r/a.go:3", true},
		{result.Position{Path: "/mod/x.go", File: "/mod/x.go", Line: 1, Column: 1}, "/mod/x.go:1:1", false},
		{result.Position{}, "-", false},
	} {
		if got := tc.p.String(); got != tc.str {
			t.Errorf("%+v.String() = %q, want %q", tc.p, got, tc.str)
		}
		if got := tc.p.InRoot(); got != tc.inRoot {
			t.Errorf("%+v.InRoot() = %v", tc.p, got)
		}
	}
}

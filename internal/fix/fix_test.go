package fix_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/fix"
)

const src = `package p

func f() {
	a := 1
	_ = a
}

func g() {
	b := 2
	_ = b
}
`

// setup writes src to a file and returns an action whose two diagnostics rename a and b,
// plus a third whose fix overlaps the first, and a duplicate of the first (the same file
// seen through a test variant).
func setup(t *testing.T) (string, []fix.Action) {
	t.Helper()
	name := filepath.Join(t.TempDir(), "p.go")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	tf := fset.File(f.Pos())
	at := func(s string) token.Pos { return tf.Pos(strings.Index(src, s)) }
	rename := func(from, to string) analysis.Diagnostic {
		return analysis.Diagnostic{Pos: at(from), Message: "rename", SuggestedFixes: []analysis.SuggestedFix{{
			Message:   "rename " + from,
			TextEdits: []analysis.TextEdit{{Pos: at(from), End: at(from) + token.Pos(len(from)), NewText: []byte(to)}},
		}}}
	}
	diags := []analysis.Diagnostic{
		rename("a := 1", "alpha := 1"),
		rename("b := 2", "beta := 2"),
		rename("a := 1", "alpha := 1"), // identical: applied once, no conflict
		rename("a :=", "x :="),         // overlaps the first
		{Pos: at("_ = a"), Message: "no fix"},
	}
	return name, []fix.Action{{Fset: fset, Files: []*ast.File{f}, Diagnostics: diags}}
}

func TestDiff(t *testing.T) {
	name, actions := setup(t)
	var out strings.Builder
	sum, err := fix.Apply(actions, &out)
	if err == nil || !strings.Contains(err.Error(), "run again") {
		t.Errorf("want an error about the overlapping fix, got %v", err)
	}
	if sum.Fixes != 4 || sum.Applied != 3 || sum.Conflicts != 1 {
		t.Errorf("summary %+v, want 4 fixes, 3 applied (one a no-op duplicate), 1 conflict", sum)
	}
	if sum.PerFile[name] != 2 {
		t.Errorf("PerFile %v, want 2 fixes that change %s (the duplicate changes nothing)", sum.PerFile, name)
	}
	want := "--- " + name + " (old)\n+++ " + name + " (new)\n" +
		"@@ -1,11 +1,11 @@\n" +
		" package p\n \n func f() {\n-\ta := 1\n+\talpha := 1\n \t_ = a\n }\n \n func g() {\n-\tb := 2\n+\tbeta := 2\n \t_ = b\n }\n"
	if out.String() != want {
		t.Errorf("diff:\n%s\nwant:\n%s", out.String(), want)
	}
	if data, _ := os.ReadFile(name); string(data) != src {
		t.Errorf("-diff changed the file")
	}
}

func TestApply(t *testing.T) {
	name, actions := setup(t)
	if _, err := fix.Apply(actions, nil); err == nil {
		t.Errorf("want an error about the overlapping fix")
	}
	data, _ := os.ReadFile(name)
	want := strings.NewReplacer("a := 1", "alpha := 1", "b := 2", "beta := 2").Replace(src)
	if string(data) != want {
		t.Errorf("file after -fix:\n%s\nwant:\n%s", data, want)
	}
}

// A file edited since it was loaded is not touched: its offsets no longer hold.
func TestChangedFile(t *testing.T) {
	name, actions := setup(t)
	if err := os.WriteFile(name, []byte(src+"// more\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := fix.Apply(actions, nil); err == nil || !strings.Contains(err.Error(), "changed since") {
		t.Errorf("want a changed-file error, got %v", err)
	}
}

func TestUnifiedHunks(t *testing.T) {
	var a, b []string
	for i := 1; i <= 30; i++ {
		line := strings.Repeat("x", i%7) + "\n"
		a = append(a, line)
		if i == 5 {
			continue // deleted
		}
		b = append(b, line)
		if i == 25 {
			b = append(b, "new\n")
		}
	}
	got := fix.Unified("a", "b", []byte(strings.Join(a, "")), []byte(strings.Join(b, "")))
	// Two changes 20 lines apart make two hunks.
	if n := strings.Count(got, "@@ -"); n != 2 {
		t.Fatalf("want 2 hunks, got %d:\n%s", n, got)
	}
	if !strings.Contains(got, "@@ -2,7 +2,6 @@\n") || !strings.Contains(got, "@@ -23,6 +22,7 @@\n") {
		t.Errorf("hunk headers wrong:\n%s", got)
	}
	if fix.Unified("a", "b", []byte("same\n"), []byte("same\n")) != "" {
		t.Errorf("equal inputs give a diff")
	}
	if got := fix.Unified("a", "b", []byte("x"), []byte("y")); got != "--- a\n+++ b\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+y\n\\ No newline at end of file\n" {
		t.Errorf("no-newline diff:\n%q", got)
	}
}

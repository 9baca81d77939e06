package text_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/output/text"
	"github.com/chokaq/idemlint/internal/result"
)

// The lines are go vet's: "file:line:col: message", related positions indented by a tab,
// and with -c=N the source lines around each.
func TestWrite(t *testing.T) {
	file := filepath.Join(t.TempDir(), "h.go")
	src := "package p\n\nfunc H() {\n\tstore.Add()\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	pos := func(line, col int) result.Position {
		return result.Position{Path: file, File: "h.go", Line: line, Column: col}
	}
	findings := []*result.Finding{{
		Message: "handler H: effect",
		Pos:     pos(4, 2), End: pos(4, 2),
		Related: []result.Related{{Pos: pos(3, 6), Message: "via H"}},
	}}
	var b strings.Builder
	if err := text.Write(&b, findings, -1, ""); err != nil {
		t.Fatal(err)
	}
	if want := file + ":4:2: handler H: effect\n" + file + ":3:6: \tvia H\n"; b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	text.Write(&b, findings[:1:1], 1, "")
	want := file + ":4:2: handler H: effect\n3\tfunc H() {\n4\t\tstore.Add()\n5\t}\n" +
		file + ":3:6: \tvia H\n2\t\n3\tfunc H() {\n4\t\tstore.Add()\n"
	if b.String() != want {
		t.Errorf("-c=1 got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// Below the directory given (the working directory), names are relative to it, as go vet
// prints them; elsewhere they stay absolute.
func TestWriteRelative(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "shop", "h.go")
	out := filepath.Join(filepath.Dir(dir), "elsewhere.go")
	findings := []*result.Finding{
		{Message: "m1", Pos: result.Position{Path: in, Line: 4, Column: 2}},
		{Message: "m2", Pos: result.Position{Path: out, Line: 1, Column: 1}},
	}
	var b strings.Builder
	text.Write(&b, findings, -1, dir)
	want := filepath.Join("shop", "h.go") + ":4:2: m1\n" + out + ":1:1: m2\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	if got := text.RelPrefix(dir, in+":3:1: expected ';'"); got != filepath.Join("shop", "h.go")+":3:1: expected ';'" {
		t.Errorf("RelPrefix: %s", got)
	}
}

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The tool ID go vet keys its cache on follows the settings and model files in force, and
// nothing else of the module.
func TestVetVersionFollowsSettings(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		name = filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	write("a/a.go", "package a\n")
	id := func() string {
		t.Helper()
		var b strings.Builder
		if err := vetVersion(&b, filepath.Join(root, "a")); err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`^\S+ version devel comments-go-here buildID=[0-9a-f]{64}\n$`).MatchString(b.String()) {
			t.Fatalf("-V=full line %q is not what the go command parses", b.String())
		}
		return b.String()
	}
	base := id()
	for _, step := range []struct {
		what    string
		do      func()
		changes bool
	}{
		{"a Go file", func() { write("a/a.go", "package a\n\nvar X = 1\n") }, false},
		{"a settings file", func() { write("a/.idemlint.yml", "disable: [email.send]\n") }, true},
		{"the settings file edited", func() { write("a/.idemlint.yml", "disable: [sql.write]\nmodels: [../m.yml]\n") }, true},
		{"the model file it lists", func() { write("m.yml", "library: x\n") }, true},
		{"the model file edited", func() { write("m.yml", "library: y\n") }, true},
		{"a settings file under testdata", func() { write("a/testdata/.idemlint.yml", "disable: [payment]\n") }, false},
		{"a settings file in a nested module", func() { write("n/go.mod", "module n\n"); write("n/.idemlint.yml", "disable: [payment]\n") }, false},
	} {
		step.do()
		got := id()
		if (got != base) != step.changes {
			t.Errorf("after %s: tool ID changed = %v, want %v", step.what, got != base, step.changes)
		}
		base = got
	}
}

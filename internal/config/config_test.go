package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The file is found walking up to the module root, not beyond it.
func TestFind(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, FileName), "disable: [payment]\n")
	write(t, filepath.Join(root, "mod", "go.mod"), "module m\n")
	write(t, filepath.Join(root, "mod", "a", "b", "x.go"), "package b\n")
	if got := Find(filepath.Join(root, "mod", "a", "b")); got != "" {
		t.Errorf("found %s above the module root", got)
	}
	write(t, filepath.Join(root, "mod", "a", FileName), "disable: [payment]\n")
	if got, want := Find(filepath.Join(root, "mod", "a", "b")), filepath.Join(root, "mod", "a", FileName); got != want {
		t.Errorf("Find = %q, want %q", got, want)
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, FileName)
	write(t, file, "library: x\ndisable: [payment]\nenable: [payment, sql.write]\nmodels: [m/acme.yml]\nbuiltin: false\ndecisions: [key]\n")
	s, err := Read(file)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Models, []string{filepath.Join(dir, "m", "acme.yml")}) || s.Builtin == nil || *s.Builtin || !slices.Equal(s.Decisions, []string{"key"}) {
		t.Errorf("settings %+v", s)
	}
	// enable leaves out every other kind; disable still applies.
	got := s.Disabled()
	if !slices.Contains(got, "payment") || slices.Contains(got, "sql.write") || !slices.Contains(got, "email.send") {
		t.Errorf("Disabled() = %v", got)
	}
	for content, want := range map[string]string{
		"disable: [payment]\nenable: [sql.wrte]\n": FileName + `:2:10: field enable: unknown effect kind "sql.wrte"`,
		"decisions: [owner]\n":                     FileName + `:1:13: field decisions: unknown decision "owner" (known: key, enforcement, ttl, partial)`,
		"shared-sinks: twice\n":                    FileName + `:1:15: field shared-sinks: unknown value "twice" (known: once, per-handler)`,
	} {
		write(t, file, content)
		_, err := Read(file)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", content, err, want)
		}
	}
}

package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run at the module's root takes the stored metadata, without go list, exactly when
// nothing go list reads changed; either way its result is a full run's.
func TestMetadataReuse(t *testing.T) {
	appendTo := func(file, text string) func(t *testing.T, mod string) {
		return func(t *testing.T, mod string) {
			t.Helper()
			name := filepath.Join(mod, filepath.FromSlash(file))
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, append(data, text...), 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
	replace := func(file, old, new string) func(t *testing.T, mod string) {
		return func(t *testing.T, mod string) { edit(t, mod, file, old, new) }
	}
	write := func(file, text string) func(t *testing.T, mod string) {
		return func(t *testing.T, mod string) {
			t.Helper()
			name := filepath.Join(mod, filepath.FromSlash(file))
			if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, []byte(text), 0o666); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The quick run (-short) keeps a case of each outcome; every run here loads the standard
	// library's syntax again, a second or more on a loaded machine.
	quick := map[string]bool{"nothing": true, "a function body": true, "an import added": true}
	for _, c := range []struct {
		name    string
		prepare func(t *testing.T, mod string) // before the run that stores the metadata
		change  func(t *testing.T, mod string)
		reused  bool
	}{
		{"nothing", nil, func(*testing.T, string) {}, true},
		{"a function body", nil, replace("worker/worker.go", "return w.Store.Create(ctx, id)", "err := w.Store.Create(ctx, id)\n\treturn err"), true},
		{"a comment below the imports", nil, appendTo("store/store.go", "\n// The end.\n"), true},
		{"a file under testdata", nil, write("store/testdata/x.go", "package x\n"), false}, // a new name in store's directory
		{"an import added", nil, replace("worker/worker.go", "import (\n", "import (\n\t_ \"encoding/csv\"\n"), false},
		{"a build constraint", nil, replace("store/store.go", "// Package store", "//go:build !windows\n\n// Package store"), false},
		{"the package clause", nil, replace("cmd/worker/main.go", "package main", "package main // the command"), false},
		{"a //go:embed line", replace("store/store.go", "\"database/sql\"\n", "\"database/sql\"\n\t_ \"embed\"\n"),
			appendTo("store/store.go", "\n//go:embed store.go\nvar src string\n"), false},
		{"a file added", nil, write("store/more.go", "package store\n"), false},
		{"a file removed", nil, func(t *testing.T, mod string) {
			if err := os.Remove(filepath.Join(mod, "worker", "worker_test.go")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a package added", nil, write("extra/extra.go", "package extra\n"), false},
		{"an editor's swap and backup files", nil, func(t *testing.T, mod string) {
			write("store/.store.go.swp", "swap")(t, mod)
			write("store/store.go~", "package store\n")(t, mod)
		}, true},
		{"go.mod", nil, appendTo("go.mod", "\n// A comment.\n"), false},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			if testing.Short() && !quick[c.name] {
				t.Skip("-short: one case of each outcome runs")
			}
			rc := newReuseCase(t, "hidden")
			if c.prepare != nil {
				c.prepare(t, rc.mod)
				rc.run(rc.c)
			}
			c.change(t, rc.mod)
			got := rc.run(rc.c)
			want := rc.run(nil)
			if g, w := jsonOf(t, got.Run), jsonOf(t, want.Run); g != w {
				t.Errorf("the run with the cache differs from one without:\n%s\nwant:\n%s", g, w)
			}
			if got.metadataCached != c.reused {
				t.Errorf("stored metadata taken = %v, want %v", got.metadataCached, c.reused)
			}
			// What a run lists is stored for the next.
			if again := rc.run(rc.c); !again.metadataCached {
				t.Error("the next run did not take the stored metadata")
			}
		})
	}
}

package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/reuse"
)

// edit inserts a line above the first line of the module's file that begins with at (which
// moves everything below it), or replaces old with new when new is given.
func edit(t *testing.T, mod, file, old, new string) {
	t.Helper()
	name := filepath.Join(mod, filepath.FromSlash(file))
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), old, new, 1)
	if edited == string(data) {
		t.Fatalf("%s: no %q to edit", file, old)
	}
	if err := os.WriteFile(name, []byte(edited), 0o666); err != nil {
		t.Fatal(err)
	}
}

// reuseCase is a module, a cache filled by a run on it, and a reference run without a cache.
type reuseCase struct {
	t        *testing.T
	mod      string
	c        *cache.Cache
	dir      string // c's directory
	patterns []string
}

func newReuseCase(t *testing.T, module string, patterns ...string) *reuseCase {
	mod := copyTree(t, filepath.Join("..", "..", "testdata", "modules", module))
	t.Chdir(mod)
	dir := t.TempDir()
	c, err := cache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	rc := &reuseCase{t: t, mod: mod, c: c, dir: dir, patterns: patterns}
	if out := rc.run(rc.c); out.Run.Reused != 0 {
		t.Fatalf("the first run reused %d packages from an empty cache", out.Run.Reused)
	}
	return rc
}

func (rc *reuseCase) run(c *cache.Cache) *Output {
	rc.t.Helper()
	out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: rc.patterns, Tests: true, Cache: c})
	if err != nil {
		rc.t.Fatal(err)
	}
	if len(out.Run.Errors) > 0 {
		rc.t.Fatalf("errors: %+v", out.Run.Errors)
	}
	return out
}

// check runs with the cache and without, compares the results, and returns how many
// packages the run with the cache reused.
func (rc *reuseCase) check(stage string) int {
	rc.t.Helper()
	got := rc.run(rc.c)
	want := rc.run(nil)
	if got.Run.Cached {
		rc.t.Fatalf("%s: answered whole from the cache", stage)
	}
	if g, w := jsonOf(rc.t, got.Run), jsonOf(rc.t, want.Run); g != w {
		rc.t.Errorf("%s: the run with the cache differs from one without:\n%s\nwant:\n%s", stage, g, w)
	}
	return got.Run.Reused
}

// After an edit of one file, only its package and what imports it are analysed, and the
// result is a full run's: through an unexported implementation its package's API does not
// reach (module hidden), through implementations wired in main that the program-wide link
// finds in three rounds (layered), with webhook checks taken over across packages (webhooks).
func TestReuseAfterAnEdit(t *testing.T) {
	for _, m := range []struct{ module, file, at string }{
		{"hidden", "worker/worker.go", "// Package worker"},
		{"layered", "orders/orders.go", "// Package orders"},
		{"webhooks", "", ""},
	} {
		t.Run(m.module, func(t *testing.T) {
			rc := newReuseCase(t, m.module)
			file, at := m.file, m.at
			if file == "" {
				file, at = firstGoFile(t, rc.mod)
			}
			edit(t, rc.mod, file, at, "// An edit.\n"+at)
			if n := rc.check("one edit"); n == 0 {
				t.Error("one edit: nothing reused")
			}
		})
	}
}

// An edit that leaves its package's declarations and facts as they were (inside a body, on
// the lines it had, or below everything) stops there: the packages that import it are
// answered from the cache, and the result is still a full run's. An edit that moves the
// lines its facts name reaches the importers.
func TestReuseStopsWhereNothingImportersReadChanged(t *testing.T) {
	rc := newReuseCase(t, "layered")
	meta, err := packages.Load(&packages.Config{Mode: reuse.MetadataMode, Tests: true}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	all := 0
	packages.Visit(meta, nil, func(*packages.Package) { all++ })
	for _, e := range []struct {
		name, old, new string
		analysed       int // packages analysed again: orders alone, or with its importers
	}{
		{"a comment below everything", "", "\n// An edit.\n", 1},
		{"a body edited on its lines", "\tif err != nil {\n\t\treturn err", "\tif err != nil || false {\n\t\treturn err", 1},
		{"lines moved", "// Handle stores", "// An edit.\n// Handle stores", 3}, // orders, pg and main
	} {
		if e.old == "" {
			name := filepath.Join(rc.mod, "orders", "orders.go")
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, append(data, e.new...), 0o666); err != nil {
				t.Fatal(err)
			}
		} else {
			edit(t, rc.mod, "orders/orders.go", e.old, e.new)
		}
		if n := all - rc.check(e.name); n != e.analysed {
			t.Errorf("%s: %d packages analysed again, want %d", e.name, n, e.analysed)
		}
	}
}

// firstGoFile returns a Go file of the module (not a test) and its first line.
func firstGoFile(t *testing.T, mod string) (file, line string) {
	t.Helper()
	var found string
	filepath.WalkDir(mod, func(path string, d os.DirEntry, err error) error {
		if found == "" && err == nil && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			found = path
		}
		return nil
	})
	if found == "" {
		t.Fatal("no Go file")
	}
	data, err := os.ReadFile(found)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(mod, found)
	return filepath.ToSlash(rel), strings.SplitN(string(data), "\n", 2)[0]
}

// An edit that changes what an implementation does, in a package the handler's package
// does not import: the handler's stored analysis was made with the old link, so the run
// analyses it again in the link's round and gives the full run's result (the new effect).
// The handler's package was read from export data in the first round (pg imports it), so
// the run starts again with it parsed from source; it is still answered by package.
func TestReuseAfterTheLinkChanges(t *testing.T) {
	rc := newReuseCase(t, "layered")
	edit(t, rc.mod, "pg/pg.go", "INSERT INTO orders (id) VALUES ($1)", "INSERT INTO orders (id) VALUES ($1) ON CONFLICT (id) DO NOTHING")
	if n := rc.check("the link's implementation changed"); n == 0 {
		t.Error("nothing reused")
	}
}

// A package that neither imports the implementation nor has open calls of its own (retry)
// reads it through the facts of a package it imports (orders), which change in the link's
// round when the implementation does: after the implementation changes and changes back
// (to another insert), retry's result must be the one made with orders' facts of the
// moment, not the last one stored for its files.
func TestReuseFollowsTheFactsOfTheLinkRounds(t *testing.T) {
	rc := newReuseCase(t, "layered")
	name := filepath.Join(rc.mod, "retry", "retry.go")
	if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
		t.Fatal(err)
	}
	src := `// Package retry runs an order job again.
package retry

import (
	"context"

	"layered/orders"
)

// Again runs the order handler once more.
//
//idemlint:handler
func Again(ctx context.Context, h *orders.Handler, id string) error {
	return h.Handle(ctx, id)
}
`
	if err := os.WriteFile(name, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	rc.check("retry added")
	const upsert = "INSERT INTO orders (id) VALUES ($1) ON CONFLICT (id) DO NOTHING"
	edit(t, rc.mod, "pg/pg.go", "INSERT INTO orders (id) VALUES ($1)", upsert)
	rc.check("the implementation made an upsert")
	// Another insert than the first (the first's whole run is stored, and would answer).
	edit(t, rc.mod, "pg/pg.go", upsert, "INSERT INTO orders (id, at) VALUES ($1, now())")
	rc.check("the implementation back to an insert")
}

// Damaged entries and export data are never read: the run recomputes what it needs and
// gives the full run's result, and the next edit is answered by package again.
func TestReuseDamagedEntries(t *testing.T) {
	rc := newReuseCase(t, "hidden")
	dir := rc.dir
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*-d"))
	if len(files) == 0 {
		t.Fatal("no entries")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		raw[len(raw)/2] ^= 0x55
		if err := os.WriteFile(f, raw, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	edit(t, rc.mod, "worker/worker.go", "// Package worker", "// An edit.\n// Package worker")
	rc.check("damaged entries")
	edit(t, rc.mod, "worker/worker.go", "// An edit.", "// Another edit.")
	if n := rc.check("the edit after"); n == 0 {
		t.Error("the edit after the damaged entries: nothing reused")
	}
}

// Patterns that name part of the program (the handlers' package: the program is still the
// whole module, the findings the package's) are answered by package too.
func TestReuseNamedPackages(t *testing.T) {
	rc := newReuseCase(t, "layered", "./orders")
	edit(t, rc.mod, "orders/orders.go", "// Package orders", "// An edit.\n// Package orders")
	if n := rc.check("one edit, ./orders named"); n == 0 {
		t.Error("nothing reused")
	}
}

// An import added changes the program's set of packages: the run is a full one, and right.
func TestReuseAfterAnImportIsAdded(t *testing.T) {
	rc := newReuseCase(t, "hidden")
	edit(t, rc.mod, "worker/worker.go", "import (\n", "import (\n\t_ \"encoding/csv\"\n")
	if n := rc.check("an import added"); n != 0 {
		t.Errorf("%d packages reused for a program whose set of packages changed", n)
	}
}

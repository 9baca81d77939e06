package driver

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/output/jsonout"
	"github.com/chokaq/idemlint/internal/result"
)

// jsonOf is the JSON output of a run: every field a format prints.
func jsonOf(t *testing.T, run *result.Run) string {
	t.Helper()
	var b bytes.Buffer
	if err := jsonout.Write(&b, jsonout.Build(run, run.Findings, nil)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func cachedRun(t *testing.T, c *cache.Cache) *result.Run {
	t.Helper()
	out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./..."}, Tests: true, Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	return out.Run
}

// entries lists the cache's entry files.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*", "*-d"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// The layered module (handlers reaching their stores through interfaces wired in main: the
// program-wide link runs three rounds): a run with a cache gives what a run without one
// gives, the next run is answered from the cache with the same result, and an entry that is
// corrupt or truncated is recomputed, never read.
func TestCachedRun(t *testing.T) {
	chdirModule(t, "layered")
	cold, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./..."}, Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	want := jsonOf(t, cold.Run)
	if len(cold.Run.Findings) == 0 || len(cold.Run.Handlers) == 0 {
		t.Fatalf("the layered module gives %d findings, %d handlers: nothing to compare", len(cold.Run.Findings), len(cold.Run.Handlers))
	}
	dir := t.TempDir()
	c, err := cache.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	first := cachedRun(t, c)
	if first.Cached {
		t.Fatal("the first run with an empty cache was answered from it")
	}
	if got := jsonOf(t, first); got != want {
		t.Errorf("a run with a cache differs from one without:\n%s\nwant:\n%s", got, want)
	}
	second := cachedRun(t, c)
	if !second.Cached {
		t.Fatal("the second run on unchanged code was not answered from the cache")
	}
	if got := jsonOf(t, second); got != want {
		t.Errorf("the cached run differs:\n%s\nwant:\n%s", got, want)
	}

	for name, damage := range map[string]func([]byte) []byte{
		"corrupt":   func(b []byte) []byte { b[len(b)/2] ^= 0x55; return b },
		"truncated": func(b []byte) []byte { return b[:len(b)*2/3] },
	} {
		files := entries(t, dir)
		if len(files) == 0 {
			t.Fatal("no entries in the cache")
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, damage(raw), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		run := cachedRun(t, c)
		if run.Cached {
			t.Errorf("%s entries: the run was answered from them", name)
		}
		if got := jsonOf(t, run); got != want {
			t.Errorf("%s entries: the recomputed run differs:\n%s", name, got)
		}
		if again := cachedRun(t, c); !again.Cached || jsonOf(t, again) != want {
			t.Errorf("%s entries: not stored again after recomputing (cached=%v)", name, again.Cached)
		}
	}
}

// Two runs at once, each with its own handle on one cache directory, both give the right
// result, and leave an entry the next run reads.
func TestCachedConcurrentRuns(t *testing.T) {
	chdirModule(t, "layered")
	dir := t.TempDir()
	var wg sync.WaitGroup
	results := make([]*result.Run, 2)
	for i := range results {
		wg.Go(func() {
			c, err := cache.Open(dir)
			if err != nil {
				t.Error(err)
				return
			}
			out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./..."}, Tests: true, Cache: c})
			if err != nil {
				t.Error(err)
				return
			}
			results[i] = out.Run
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	a, b := jsonOf(t, results[0]), jsonOf(t, results[1])
	if a != b {
		t.Errorf("two concurrent runs differ:\n%s\n%s", a, b)
	}
	c, _ := cache.Open(dir)
	after := cachedRun(t, c)
	if !after.Cached || jsonOf(t, after) != a {
		t.Errorf("after two concurrent writers: cached=%v, same=%v", after.Cached, jsonOf(t, after) == a)
	}
}

// What the key covers: a change to a file of the program, to the settings file, or to the
// analyzer's settings makes a run miss.
func TestCacheKeyChanges(t *testing.T) {
	src, err := filepath.Abs(filepath.Join("..", "..", "testdata", "modules", "layered"))
	if err != nil {
		t.Fatal(err)
	}
	mod := copyTree(t, src)
	t.Chdir(mod)
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cachedRun(t, c)
	if !cachedRun(t, c).Cached {
		t.Fatal("unchanged: not answered from the cache")
	}
	edit := func(name, text string) {
		t.Helper()
		f, err := os.OpenFile(filepath.Join(mod, name), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(text)
		f.Close()
	}
	for _, change := range []struct {
		what string
		do   func()
	}{
		{"a comment in a store (a dependency of the handler)", func() { edit("pg/pg.go", "\n// changed\n") }},
		{"a new settings file", func() { edit(".idemlint.yml", "disable: [email.send]\n") }},
		{"a new file in the handler's package", func() { edit("orders/extra.go", "package orders\n") }},
	} {
		change.do()
		if cachedRun(t, c).Cached {
			t.Errorf("after %s: answered from the cache", change.what)
		}
		if !cachedRun(t, c).Cached {
			t.Errorf("after %s, run again: not answered from the cache", change.what)
		}
	}
	a, err := analyzer.New(analyzer.Config{Disable: []string{"sql.write"}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := Run(Config{Analyzer: a, Patterns: []string{"./..."}, Tests: true, Cache: c, Disabled: []string{"sql.write"}})
	if err != nil {
		t.Fatal(err)
	}
	if out.Run.Cached {
		t.Error("other analyzer settings: answered from the cache")
	}
}

// copyTree copies the directory src into a new temporary directory and returns it.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// A run whose only errors are in the sources (a type error in one package) is stored, and
// the next run on unchanged code is answered from the cache with the same errors and
// findings; a run with a listing error (a module that is not there) is not stored.
func TestCachedRunWithTypeErrors(t *testing.T) {
	mod := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(mod, name)), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/broken\n\ngo 1.26\n")
	write("ok/ok.go", "package ok\n\nfunc OK() int { return 1 }\n")
	write("bad/bad.go", "package bad\n\nfunc Bad() int { return \"one\" }\n")
	t.Chdir(mod)
	c, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	first := cachedRun(t, c)
	if len(first.Errors) == 0 || !first.Errors[0].Source {
		t.Fatalf("the type error is not a source error: %+v", first.Errors)
	}
	second := cachedRun(t, c)
	if !second.Cached {
		t.Fatal("the run with a type error was not stored: the next run analysed everything again")
	}
	if got, want := jsonOf(t, second), jsonOf(t, first); got != want {
		t.Errorf("the cached run differs:\n%s\nwant:\n%s", got, want)
	}

	write("missing/missing.go", "package missing\n\nimport _ \"example.com/nowhere/pkg\"\n")
	if run := cachedRun(t, c); run.Cached || len(run.Errors) == 0 {
		t.Fatalf("a run with a missing import: cached=%v errors=%+v", run.Cached, run.Errors)
	}
	if run := cachedRun(t, c); run.Cached {
		t.Error("a run with a listing error was stored")
	}
}

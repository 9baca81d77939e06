package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/internal/cache"
)

// cacheFormats are the invocations whose output must not depend on the cache: every
// format of the check and of the inventory.
var cacheFormats = [][]string{
	{"./..."},
	{"-format", "json", "./..."},
	{"-format", "sarif", "./..."},
	{"-format", "github", "./..."},
	{"report", "-format", "html", "./..."},
	{"report", "-format", "markdown", "./..."},
}

// withCache puts -cache=dir after the subcommand, if any.
func withCache(args []string, dir string) []string {
	flag := "-cache=" + dir
	if args[0] == "report" {
		return append([]string{"report", flag}, args[1:]...)
	}
	return append([]string{flag}, args...)
}

type invocation struct {
	stdout string
	code   int
	cached bool // answered whole from the cache
	reused bool // only what changed was analysed
}

// reused matches the summary line of a run that analysed only what changed.
var reused = regexp.MustCompile(`\(\d+ from the cache\)\n`)

func invoke(t *testing.T, dir string, args []string) invocation {
	t.Helper()
	stdout, stderr, code := inProcess(t, dir, args...)
	return invocation{stdout, code, strings.Contains(stderr, "(cached)\n"), reused.FindString(stderr) != ""}
}

// A module run cold without a cache, then with one (the first run fills it), then again
// (answered from it), then after an edit of a handler's file (recomputed, then answered
// from it again): every format's output is byte for byte what a run without a cache gives,
// and the summary line says when a run was answered from the cache. The layered module
// takes three rounds of the program-wide link; the shared one has related information.
func TestCacheColdWarmOneChange(t *testing.T) {
	for _, m := range []struct{ name, file string }{{"layered", "orders/orders.go"}, {"shared", "webhooks/webhooks.go"}} {
		t.Run(m.name, func(t *testing.T) { coldWarmOneChange(t, m.name, m.file) })
	}
}

func coldWarmOneChange(t *testing.T, name, handlerFile string) {
	src := filepath.Join(pkgDir, "..", "..", "testdata", "modules", name)
	mod := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(mod, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "cache")
	reference := func() []invocation {
		var out []invocation
		for _, args := range cacheFormats {
			want := invoke(t, mod, withCache(args, cache.Off))
			if want.cached || want.stdout == "" {
				t.Fatalf("%v with -cache=off: cached=%v, %d bytes of output", args, want.cached, len(want.stdout))
			}
			out = append(out, want)
		}
		return out
	}
	check := func(stage string, want []invocation, wantCached func(i int) bool, wantReused bool) {
		t.Helper()
		for i, args := range cacheFormats {
			got := invoke(t, mod, withCache(args, dir))
			if got.stdout != want[i].stdout || got.code != want[i].code {
				t.Errorf("%s: %v: output with the cache differs from a run without it (exit %d, want %d):\n%s\nwant:\n%s", stage, args, got.code, want[i].code, got.stdout, want[i].stdout)
			}
			if got.cached != wantCached(i) {
				t.Errorf("%s: %v: answered from the cache: %v, want %v", stage, args, got.cached, wantCached(i))
			}
			if r := wantReused && i == 0; got.reused != r {
				t.Errorf("%s: %v: only what changed analysed: %v, want %v", stage, args, got.reused, r)
			}
		}
	}
	// The first invocation fills the cache; the others, whatever their format, read it.
	before := reference()
	check("cold", before, func(i int) bool { return i > 0 }, false)
	check("warm", before, func(int) bool { return true }, false)

	// One change to the handler's file, which moves what follows down two lines.
	file := filepath.Join(mod, filepath.FromSlash(handlerFile))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "\nimport", "\n// An edit above the handler.\n\nimport", 1)
	if edited == string(data) {
		t.Fatalf("%s has no import to edit above", handlerFile)
	}
	if err := os.WriteFile(file, []byte(edited), 0o666); err != nil {
		t.Fatal(err)
	}
	after := reference()
	if after[1].stdout == before[1].stdout {
		t.Fatal("the edit changed nothing in the JSON output: it tests nothing")
	}
	// The edited package and what imports it are analysed again, the others' analysis is
	// the cache's.
	check("one change", after, func(i int) bool { return i > 0 }, true)
	check("warm after the change", after, func(int) bool { return true }, false)
}

// -fix and the legacy -json tree read the checker's graph, which the cache does not hold:
// they analyse, and leave the cache as it was.
func TestCacheBypassed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	mod := filepath.Join(pkgDir, "..", "..", "testdata", "modules", "layered")
	for _, args := range [][]string{{"-json", "./..."}, {"-fix", "-diff", "./..."}, {"-debug", "p", "./..."}} {
		if got := invoke(t, mod, append([]string{"-cache=" + dir}, args...)); got.cached {
			t.Errorf("%v: answered from the cache", args)
		}
		if files, _ := filepath.Glob(filepath.Join(dir, "*", "*-d")); len(files) > 0 {
			t.Errorf("%v: wrote %d cache entries", args, len(files))
		}
	}
}

// idemlint cache dir prints where the cache is; idemlint cache clean empties it.
func TestCacheCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	t.Setenv(cache.EnvVar, dir)
	out, code := inProcessAll(t, pkgDir, "cache", "dir")
	if code != exitClean || out != dir+"\n" {
		t.Errorf("cache dir: %q, exit %d", out, code)
	}
	mod := filepath.Join(pkgDir, "..", "..", "testdata", "modules", "layered")
	invoke(t, mod, []string{"-q", "./..."})
	if files, _ := filepath.Glob(filepath.Join(dir, "*", "*-d")); len(files) == 0 {
		t.Fatalf("$%s=%s: nothing cached", cache.EnvVar, dir)
	}
	if out, code := inProcessAll(t, pkgDir, "cache", "clean"); code != exitClean || out != "" {
		t.Errorf("cache clean: %q, exit %d", out, code)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("after cache clean the directory is still there (%v)", err)
	}
	t.Setenv(cache.EnvVar, cache.Off)
	if out, _ := inProcessAll(t, pkgDir, "cache", "dir"); out != "off\n" {
		t.Errorf("cache dir with the cache off: %q", out)
	}
	invoke(t, mod, []string{"-q", "./..."})
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("$%s=off: the cache directory was made (%v)", cache.EnvVar, err)
	}
	for _, args := range [][]string{{"help", "cache"}, {"cache", "-h"}} {
		if out, code := inProcessAll(t, pkgDir, args...); code != exitClean || !strings.Contains(out, "idemlint cache clean") {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
	for _, args := range [][]string{{"cache"}, {"cache", "purge"}, {"cache", "clean", "x"}} {
		if _, code := inProcessAll(t, pkgDir, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

package apicheck

import (
	"fmt"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

// universe is what the tests compare: the real packages listed in
// imports.go, and the stubs of those of them that testdata/src stubs.
type universe struct {
	real  map[string]*types.Package // by import path
	stubs map[string]*types.Package // by import path, a subset of real's keys
}

// load loads everything once; both the stub and the name tests need the real
// packages, and type-checking stripe-go is the slow part.
var load = sync.OnceValues(func() (*universe, error) {
	paths, err := listedPaths("imports.go")
	if err != nil {
		return nil, err
	}
	testdata, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		return nil, err
	}
	stubPaths, internal, err := stubbedPaths(filepath.Join(testdata, "src"), paths)
	if err != nil {
		return nil, err
	}

	// Internal packages cannot be imported from imports.go, but go list loads them by
	// path from outside their module (the internal rule restricts imports, not
	// command-line patterns), which is all the comparison needs.
	u := &universe{}
	if u.real, err = loadTypes(&packages.Config{}, append(slices.Clone(paths), internal...)); err != nil {
		return nil, fmt.Errorf("real packages: %w", err)
	}
	// The stubs are loaded the way analysistest loads them: GOPATH mode with
	// GOPATH=testdata, so the same import paths name the stub copies.
	gopath := &packages.Config{
		Dir: testdata,
		Env: append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
	}
	if u.stubs, err = loadTypes(gopath, stubPaths); err != nil {
		return nil, fmt.Errorf("stub packages: %w", err)
	}
	return u, nil
})

// loadUniverse returns the loaded packages or stops the test.
func loadUniverse(t *testing.T) *universe {
	t.Helper()
	u, err := load()
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// loadTypes type-checks paths (from export data, which is all the comparison
// needs) and fails on any package error.
func loadTypes(cfg *packages.Config, paths []string) (map[string]*types.Package, error) {
	cfg.Mode = packages.NeedName | packages.NeedTypes
	pkgs, err := packages.Load(cfg, paths...)
	if err != nil {
		return nil, err
	}
	var errs []string
	out := make(map[string]*types.Package)
	for _, p := range pkgs {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		out[p.PkgPath] = p.Types
	}
	for _, path := range paths {
		if out[path] == nil {
			errs = append(errs, path+": not loaded")
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

// listedPaths returns the import paths of file, the one list of real
// packages.
func listedPaths(file string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// stubbedPaths returns the import paths of the stub packages under src: every directory
// with Go files below a first path element that looks like a host (cloud.google.com,
// github.com, gopkg.in; the analyzer's own test packages have no dot there). A stub must be
// listed in imports.go, except an internal package, which no file outside its module can
// import: those are returned in internal as well, to be loaded by path. A stub that is
// neither fails the load, since it would silently go unchecked.
func stubbedPaths(src string, listed []string) (stubbed, internal []string, err error) {
	var unlisted []string
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || path == src {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		importPath := filepath.ToSlash(rel)
		first, _, _ := strings.Cut(importPath, "/")
		if !strings.Contains(first, ".") {
			return filepath.SkipDir // a test package of the analyzer, not a stub
		}
		if !hasGoFiles(path) {
			return nil
		}
		switch {
		case slices.Contains(listed, importPath):
			stubbed = append(stubbed, importPath)
		case isInternal(importPath):
			stubbed = append(stubbed, importPath)
			internal = append(internal, importPath)
		default:
			unlisted = append(unlisted, importPath)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(unlisted) > 0 {
		return nil, nil, fmt.Errorf("stub packages missing from imports.go, so not checked: %s", strings.Join(unlisted, ", "))
	}
	return stubbed, internal, nil
}

// isInternal reports whether path has an element "internal", which makes it importable
// only from below the element's parent.
func isInternal(path string) bool {
	return slices.Contains(strings.Split(path, "/"), "internal")
}

// hasGoFiles reports whether dir holds a Go file (a directory can be named like one:
// github.com/nats-io/nats.go).
func hasGoFiles(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			return true
		}
	}
	return false
}

// TestStubbedPaths checks which directories count as stubs: listed ones, internal ones
// (compared although imports.go cannot list them), not the analyzer's test packages, not
// a directory named like a Go file; and that an unlisted stub fails the load.
func TestStubbedPaths(t *testing.T) {
	src := t.TempDir()
	write := func(dir string) {
		if err := os.MkdirAll(filepath.Join(src, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(src, dir, "x.go"), []byte("package x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("example.com/m/p")
	write("example.com/m/internal/q")
	write("example.com/n.go/r")
	write("feature")
	stubbed, internal, err := stubbedPaths(src, []string{"example.com/m/p", "example.com/n.go/r"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"example.com/m/internal/q", "example.com/m/p", "example.com/n.go/r"}; !slices.Equal(stubbed, want) {
		t.Errorf("stubbed = %v, want %v", stubbed, want)
	}
	if want := []string{"example.com/m/internal/q"}; !slices.Equal(internal, want) {
		t.Errorf("internal = %v, want %v", internal, want)
	}
	write("other.org/s")
	if _, _, err := stubbedPaths(src, []string{"example.com/m/p", "example.com/n.go/r"}); err == nil || !strings.Contains(err.Error(), "other.org/s") {
		t.Errorf("an unlisted stub: err = %v, want it named", err)
	}
}

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
	stubPaths, err := stubbedPaths(filepath.Join(testdata, "src"), paths)
	if err != nil {
		return nil, err
	}

	u := &universe{}
	if u.real, err = loadTypes(&packages.Config{}, paths); err != nil {
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

// stubbedPaths returns the listed paths that have a stub directory under
// src. It fails on a stub package under a listed repository that is not
// listed itself, since that stub would silently go unchecked.
func stubbedPaths(src string, listed []string) ([]string, error) {
	var stubbed, unlisted []string
	roots := make(map[string]bool)
	for _, p := range listed {
		if r := repoRoot(p); r != "" {
			roots[r] = true
		}
	}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		importPath := filepath.ToSlash(rel)
		if !roots[repoRoot(importPath)] || !hasGoFiles(path) {
			return nil
		}
		if slices.Contains(listed, importPath) {
			stubbed = append(stubbed, importPath)
		} else {
			unlisted = append(unlisted, importPath)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(unlisted) > 0 {
		return nil, fmt.Errorf("stub packages missing from imports.go, so not checked: %s", strings.Join(unlisted, ", "))
	}
	return stubbed, nil
}

// repoRoot returns host/owner/repo of a third-party path, or "" for the
// standard library (no dot in the first element).
func repoRoot(path string) string {
	parts := strings.SplitN(path, "/", 4)
	// gopkg.in/name.vN (and gopkg.in/user/name.vN) is a repository in two parts.
	if parts[0] == "gopkg.in" && len(parts) >= 2 {
		if strings.Contains(parts[1], ".v") || len(parts) < 3 {
			return strings.Join(parts[:2], "/")
		}
		return strings.Join(parts[:3], "/")
	}
	if !strings.Contains(parts[0], ".") {
		return ""
	}
	if len(parts) == 2 {
		return path // a vanity host's repository in two parts: gorm.io/gorm, entgo.io/ent
	}
	if len(parts) < 3 {
		return ""
	}
	return strings.Join(parts[:3], "/")
}

func hasGoFiles(dir string) bool {
	matches, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(matches) > 0
}

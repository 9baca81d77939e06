package analyzer

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/model"
)

// Skipped returns the rule by which a's analysis skips a package whole, for a driver that
// wants to spend nothing on what will not be read (the command parses such packages
// without function bodies or comments): skipped(dir, module) reports whether the package
// in directory dir, of the module with that path ("" for the standard library), is one
// whose syntax the analysis never looks at. It is the same rule the analysis applies:
// standard-library packages unless -std, and dependency modules (versioned, in the module
// cache) that the models in force for dir describe. The main module is never skipped
// whole. A model file that does not load skips nothing: the analysis reports it.
func Skipped(a *analysis.Analyzer) (func(dir, module string) bool, error) {
	s, cfg, err := compiledOf(a)
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	type key struct{ dir, module string }
	memo := map[key]bool{}
	return func(dir, module string) bool {
		if module == "" {
			return !s.std && strings.HasPrefix(dir+string(filepath.Separator), goroot)
		}
		mu.Lock()
		defer mu.Unlock()
		k := key{dir, module}
		if v, ok := memo[k]; ok {
			return v
		}
		ix, err := cfg.indexFor(dir)
		v := err == nil && ix.ModelledModule(module)
		memo[k] = v
		return v
	}, nil
}

// Modelled returns whether the models in force for any of dirs name a package by its path
// (a sink, handler or registration of it), for a driver that keeps what model resolution
// may look up in such a package.
func Modelled(a *analysis.Analyzer, dirs []string) (func(path string) bool, error) {
	_, cfg, err := compiledOf(a)
	if err != nil {
		return nil, err
	}
	var indexes []*model.Index
	for _, dir := range dirs {
		ix, err := cfg.indexFor(dir)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(indexes, ix) {
			indexes = append(indexes, ix)
		}
	}
	return func(path string) bool {
		for _, ix := range indexes {
			if ix.Modelled(path) {
				return true
			}
		}
		return false
	}, nil
}

// compiledOf returns a's settings, compiled.
func compiledOf(a *analysis.Analyzer) (*settings, *compiled, error) {
	s, err := settingsOf(a)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := s.compile()
	return s, cfg, err
}

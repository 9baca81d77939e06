package driver

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/result"
)

// chdirModule makes testdata/modules/name, a module of its own, the test's working directory
// (the driver loads patterns relative to it, as the command does).
func chdirModule(t *testing.T, name string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "modules", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
}

// chains gives each finding as "handler: what via hop -> hop", what being the part of the
// finding a test compares (its detail, its category).
func chains(findings []*result.Finding, what func(*result.Finding) string) []string {
	var out []string
	for _, f := range findings {
		var hops []string
		for _, h := range f.Chain {
			hops = append(hops, h.Func)
		}
		out = append(out, f.Handler+": "+what(f)+" via "+strings.Join(hops, " -> "))
	}
	return out
}

// runAll runs the analyzer on ./... of the current module and fails the test on an error or
// a package error.
func runAll(t *testing.T) *Output {
	t.Helper()
	out, err := Run(Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Run.Errors) > 0 {
		t.Fatalf("errors: %+v", out.Run.Errors)
	}
	return out
}

// handlerNames lists the run's handlers by name, in order.
func handlerNames(run *result.Run) []string {
	var names []string
	for _, h := range run.Handlers {
		names = append(names, h.Name)
	}
	return names
}

package analyzer_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chokaq/idemlint/analyzer"
)

func testdata(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// diagnosticsOnly passes analysistest's complaints through except those about facts nobody
// asked for: the feature packages state their diagnostics, and the fact packages (below)
// state every fact.
type diagnosticsOnly struct{ t *testing.T }

func (d diagnosticsOnly) Errorf(format string, args ...any) {
	d.t.Helper()
	if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "unexpected fact") {
		d.t.Error(msg)
	}
}

// packageFactsIgnored drops only the package facts ("has effects"), which every package in a
// chain carries.
type packageFactsIgnored struct{ t *testing.T }

func (d packageFactsIgnored) Errorf(format string, args ...any) {
	d.t.Helper()
	if msg := fmt.Sprintf(format, args...); !strings.Contains(msg, "unexpected fact: {package") {
		d.t.Error(msg)
	}
}

// One package per feature; each file's // want comments are the expected diagnostics.
func TestAnalyzer(t *testing.T) {
	for _, pkg := range []string{
		"sqlwrite",
		"httpwrite",
		"email",
		"payment",
		"handlers",
		"directives",
		"generics",
		"closures",
		"iface/use",
		"middleware",
		"publish",
		"usermodels/handlers",
		"decisions",
		"typeerrors",
	} {
		t.Run(pkg, func(t *testing.T) {
			analysistest.Run(diagnosticsOnly{t}, testdata(t), analyzer.Analyzer, pkg)
		})
	}
}

// Facts cross package boundaries (upstream -> middle -> downstream, an interface
// implementation in another package) and settle on cycles; every fact is stated.
func TestFacts(t *testing.T) {
	analysistest.Run(packageFactsIgnored{t}, testdata(t), analyzer.Analyzer,
		"crosspkg/upstream", "crosspkg/middle", "crosspkg/downstream", "iface/impl", "cycles")
}

// Handlers known only by their registration (a company runtime declared in .idemlint.yml):
// functions and a struct's exported methods in the registering package, and a function of
// another package reported at its registration.
func TestRegistrations(t *testing.T) {
	analysistest.Run(diagnosticsOnly{t}, testdata(t), analyzer.Analyzer, "usermodels/activities", "usermodels/app")
}

// The decisions skeleton is inserted at the end of a handler's doc comment, or above it.
func TestDecisionsSkeletonFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(diagnosticsOnly{t}, testdata(t), analyzer.Analyzer, "decisionsfix")
}

// The Idempotency-Key header line is added where the request is sent, from a stable key in
// scope (eventID); never from a random one (traceID).
func TestHeaderFix(t *testing.T) {
	analysistest.RunWithSuggestedFixes(diagnosticsOnly{t}, testdata(t), analyzer.Analyzer, "headerfix")
}

// An explicit middleware retention is compared with the retry horizon of the jobs it serves,
// read from the package that sets their retries (a package fact).
func TestRetentionHorizon(t *testing.T) {
	analysistest.Run(diagnosticsOnly{t}, testdata(t), analyzer.Analyzer, "retention/tasks", "retention/worker", "retention/custom")
}

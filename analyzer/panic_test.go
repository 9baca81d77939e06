package analyzer

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
)

type collect struct{ errs []string }

func (c *collect) Errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

// A panic inside a pass becomes that package's error, naming it; the host keeps running
// and other packages are analysed.
func TestPanicBecomesError(t *testing.T) {
	testHookRun = func(pass *analysis.Pass) {
		if pass.Pkg.Path() == "email" {
			var m map[string]int
			m["boom"]++ //lint:ignore SA5000 a nil map write, as a real bug would panic
		}
	}
	defer func() { testHookRun = nil }()
	dir, _ := filepath.Abs(filepath.Join("..", "testdata"))
	var c collect
	results := analysistest.Run(&c, dir, Analyzer, "email", "sqlwrite")
	joined := strings.Join(c.errs, "\n")
	if !strings.Contains(joined, "internal error analysing email") || !strings.Contains(joined, "assignment to entry in nil map") {
		t.Fatalf("want an error naming package email and the panic, got:\n%s", joined)
	}
	analysed := false
	for _, r := range results {
		if r.Action.Package.PkgPath == "sqlwrite" && r.Action.Err == nil && len(r.Action.Diagnostics) > 0 {
			analysed = true
		}
	}
	if !analysed {
		t.Errorf("package sqlwrite was not analysed after email's panic")
	}
}

// A panic while a function is analysed names that function too.
func TestPanicNamesTheFunction(t *testing.T) {
	testHookEvaluate = func(name string) {
		if name == "SMTP" {
			panic("boom in SMTP")
		}
	}
	defer func() { testHookEvaluate = nil }()
	dir, _ := filepath.Abs(filepath.Join("..", "testdata"))
	var c collect
	analysistest.Run(&c, dir, Analyzer, "email")
	joined := strings.Join(c.errs, "\n")
	if !strings.Contains(joined, "internal error analysing email (function SMTP): boom in SMTP") {
		t.Fatalf("want an error naming package email and function SMTP, got:\n%s", joined)
	}
}

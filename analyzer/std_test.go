package analyzer

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// The engine runs over a large body of real code, the standard library (with -std), without
// a panic or an error in any package. The whole library is run by the bench script; this is
// the bounded subset CI runs: a few packages and every package they import.
func TestStandardLibraryRobustness(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks a large part of the standard library from source")
	}
	cfg := &packages.Config{Mode: packages.LoadAllSyntax}
	pkgs, err := packages.Load(cfg, "net/http", "go/types", "encoding/json", "text/template", "database/sql", "archive/zip", "crypto/tls")
	if err != nil {
		t.Fatal(err)
	}
	a := newAnalyzer(&settings{builtin: true, std: true})
	res, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for act := range res.All() {
		n++
		if act.Err != nil {
			t.Errorf("%s: %v", act.Package.PkgPath, act.Err)
		}
	}
	if n < 100 {
		t.Errorf("only %d packages analysed: the robustness run covered too little", n)
	}
	t.Logf("%d standard library packages analysed", n)
}

package analyzer_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
)

// loadTestdata type-checks the test packages once, so the benchmarks time analysis alone.
func loadTestdata(b *testing.B) []*packages.Package {
	dir, err := filepath.Abs(filepath.Join("..", "testdata"))
	if err != nil {
		b.Fatal(err)
	}
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax | packages.NeedModule,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, "sqlwrite", "httpwrite", "email", "payment", "handlers", "generics",
		"closures", "iface/use", "crosspkg/downstream", "decisions", "publish", "cycles", "directives")
	if err != nil {
		b.Fatal(err)
	}
	return pkgs
}

// floor needs the same inputs as idemlint (type information) and does nothing with them:
// the cost every analyzer pays.
var floor = &analysis.Analyzer{
	Name: "floor",
	Doc:  "does nothing with type information",
	Run:  func(*analysis.Pass) (any, error) { return nil, nil },
}

// BenchmarkAnalyzer and BenchmarkFloor run over the same loaded packages and their
// dependencies (standard library included); compare them with benchstat for the ratio.
func BenchmarkAnalyzer(b *testing.B) { benchAnalyze(b, analyzer.Analyzer) }

func BenchmarkFloor(b *testing.B) { benchAnalyze(b, floor) }

func benchAnalyze(b *testing.B, a *analysis.Analyzer) {
	pkgs := loadTestdata(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil); err != nil {
			b.Fatal(err)
		}
	}
}

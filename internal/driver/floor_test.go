package driver

import (
	"testing"

	"golang.org/x/tools/go/analysis"
)

// The driver runs an analyzer that is not idemlint's (the benchmark's floor) once, with
// no program-wide link: it has no summaries to link.
func TestOtherAnalyzer(t *testing.T) {
	chdirModule(t, "layered")
	ran := 0
	floor := &analysis.Analyzer{Name: "floor", Doc: "does nothing", Run: func(*analysis.Pass) (any, error) { ran++; return nil, nil }}
	out, err := Run(Config{Analyzer: floor, Patterns: []string{"./..."}, Debug: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if out.Run.Packages == 0 || ran != out.Run.Packages {
		t.Errorf("%d packages, the analyzer ran %d times", out.Run.Packages, ran)
	}
}

package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chokaq/idemlint/analyzer"
)

// A directive that silences nothing carries a fix that removes it: its line when it stands
// alone, the blanks before it when it trails code, and the "//" line it leaves dangling at
// the end of a doc comment. testdata/src/fixes/fixes.go.golden is the file after the fixes.
func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(packageFactsIgnored{t}, testdata(t), analyzer.Analyzer, "fixes")
}

package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chokaq/idemlint/analyzer"
)

// The built-in models of each library, one package per library directly under
// testdata/src/models: each file's // want comments are the expected diagnostics and facts,
// and its unflagged calls the cases the model must see as guarded. Deeper directories are
// the libraries' fixtures (models/ent/ent, ent's generated client), analysed as imports.
func TestModels(t *testing.T) {
	for _, dir := range nonEmpty(t, "model packages", subdirs(t, "models")) {
		pkg := "models/" + dir
		t.Run(pkg, func(t *testing.T) {
			analysistest.Run(t, testdata(t), analyzer.Analyzer, pkg)
		})
	}
}

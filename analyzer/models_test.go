package analyzer_test

import "testing"

// The built-in models of each library, one package per library directly under
// testdata/src/models: each file's // want comments are the expected diagnostics and facts,
// and its unflagged calls the cases the model must see as guarded. Deeper directories are
// the libraries' fixtures (models/ent/ent, ent's generated client), analysed as imports. All of them are analysed in one run (see run).
func TestModels(t *testing.T) {
	var pkgs []string
	for _, dir := range selected(t, nonEmpty(t, "model packages", subdirs(t, "models"))) {
		pkgs = append(pkgs, "models/"+dir)
	}
	run(t, pkgs)
}

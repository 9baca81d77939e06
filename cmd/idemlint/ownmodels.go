package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/mod/modfile"

	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/modelcheck"
)

// warnOwnPackages warns, once per package, when a model file in force (the -models files or
// the settings' models, and every .idemlint.yml of the module) names a package of the main
// module: the analysis then skips that package, which is right for a company's queue library
// kept beside its handlers and silent loss for anything else (4 findings became 0 with exit
// 0 on a service whose model named its own store; a misspelt name does the same).
func warnOwnPackages(w io.Writer, wd string, models []string) {
	root := moduleRoot(wd)
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return
	}
	mainModule := modfile.ModulePath(data)
	files := slices.Clone(models)
	for _, f := range settingsFiles(root) {
		files = append(files, relTo(wd, f))
	}
	warned := map[string]bool{}
	for _, f := range files {
		lib, err := model.LoadFile(f)
		if err != nil {
			continue // reported as the run's configuration error
		}
		for _, p := range modelcheck.OwnPackages(lib, mainModule) {
			if !warned[p] {
				warned[p] = true
				fmt.Fprintf(w, "idemlint: %s\n", modelcheck.OwnNote(f, p))
			}
		}
	}
}

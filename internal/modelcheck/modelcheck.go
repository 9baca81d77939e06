// Package modelcheck implements `idemlint -models-check FILE [packages]`: it validates a
// model file and reports, for each name the file references, whether it exists in the
// packages a project imports, so a typo in a user's model shows up before it silently
// models nothing.
package modelcheck

import (
	"fmt"
	"go/types"
	"io"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/internal/model"
)

// Run checks file against the import graph of patterns (loaded from dir) and writes one
// line per referenced name to w. It returns the exit status: 0 when every name whose
// package is in view resolves, 1 when a name does not resolve; an error (with status 1)
// when the file is invalid or the packages do not load, which the caller reports as it
// reports other input problems.
func Run(w io.Writer, file, dir string, patterns []string) (int, error) {
	lib, err := model.LoadFile(file)
	if err != nil {
		return 1, err
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps | packages.NeedModule, Dir: dir}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return 1, fmt.Errorf("%s: loading %v: %v", file, patterns, err)
	}
	// A package that did not load would make its names look missing: say so instead.
	var loadErrs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			loadErrs = append(loadErrs, e.Error())
		}
	})
	if len(loadErrs) > 0 {
		return 1, fmt.Errorf("%s: cannot check: %d errors loading %v, first: %s", file, len(loadErrs), patterns, loadErrs[0])
	}
	graph := model.Packages{}
	mainModule := ""
	for _, p := range pkgs {
		if p.Types != nil {
			graph.Add(p.Types)
		}
		if p.Module != nil && p.Module.Main {
			mainModule = p.Module.Path
		}
	}
	return Report(w, file, lib, graph, mainModule), nil
}

// OwnPackages lists, sorted and each once, the packages of the module mainModule that lib
// names: the analysis skips a package a model describes, so its own handlers and effects
// are then only what the models say, and a misspelt name skips it the same way.
func OwnPackages(lib model.Library, mainModule string) []string {
	var out []string
	if mainModule == "" {
		return nil
	}
	for _, name := range model.NamesOf([]model.Library{lib}) {
		p := model.Normalize(model.PackageOf(name))
		if (p == mainModule || strings.HasPrefix(p, mainModule+"/")) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// OwnNote is the warning for the packages OwnPackages lists, one line each.
func OwnNote(file, pkg string) string {
	return fmt.Sprintf("%s names %s, a package of this module: it is not analysed, so its handlers and effects are only what the models say (a misspelt name does the same)", file, pkg)
}

// Report writes the verdict for each name of lib against graph, and a warning for each
// package of the main module (mainModule, "" if unknown) the file names, and returns the
// exit status.
func Report(w io.Writer, file string, lib model.Library, graph model.Packages, mainModule string) int {
	status := 0
	ok, missing, unseen := 0, 0, 0
	for _, name := range model.NamesOf([]model.Library{lib}) {
		if graph[model.Normalize(model.PackageOf(name))] == nil {
			fmt.Fprintf(w, "not imported  %s\n", name)
			unseen++
			continue
		}
		obj, err := model.Resolve(graph, name)
		if err != nil {
			fmt.Fprintf(w, "MISSING       %v\n", err)
			missing++
			status = 1
			continue
		}
		fmt.Fprintf(w, "ok            %s (%s)\n", name, kind(obj))
		ok++
	}
	for _, p := range OwnPackages(lib, mainModule) {
		fmt.Fprintf(w, "own package   %s\n", OwnNote(file, p))
	}
	fmt.Fprintf(w, "%s: %d names found, %d missing, %d in packages not imported here\n", file, ok, missing, unseen)
	return status
}

func kind(obj types.Object) string {
	switch obj.(type) {
	case *types.Func:
		return "func"
	case *types.TypeName:
		return "type"
	case *types.Var:
		return "field or var"
	case *types.Const:
		return "const"
	case *types.PkgName:
		return "package"
	}
	return "object"
}

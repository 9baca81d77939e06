// Package modelcheck implements `idemlint -models-check FILE [packages]`: it validates a
// model file and reports, for each name the file references, whether it exists in the
// packages a project imports, so a typo in a user's model shows up before it silently
// models nothing.
package modelcheck

import (
	"fmt"
	"go/types"
	"io"

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
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedTypes | packages.NeedImports | packages.NeedDeps, Dir: dir}
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
	for _, p := range pkgs {
		if p.Types != nil {
			graph.Add(p.Types)
		}
	}
	return Report(w, file, lib, graph), nil
}

// Report writes the verdict for each name of lib against graph and returns the exit status.
func Report(w io.Writer, file string, lib model.Library, graph model.Packages) int {
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

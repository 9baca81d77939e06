package reuse

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// loader gives reuseRun the types of the program's packages as it needs them: read from
// export data, or parsed and type-checked from source for the packages it analyses. A
// package is loaded after its dependencies, so that each is read whole.
type loader struct {
	st    *pkgStore
	fset  *token.FileSet
	sizes types.Sizes
	trim  Parser

	nodes     map[string]*packages.Package // a node for every package of the program, by ID
	program   []*packages.Package          // the same, for the joiner's index (pkgout.NewJoiner)
	loaded    map[string]bool              // by ID: its types are set
	sourced   []*packages.Package          // type-checked from source, in order
	isSourced map[string]bool
	// fromSource names the packages to type-check from source even when only their types
	// are needed (see reuseRun).
	fromSource map[string]bool
}

func newLoader(st *pkgStore, all []*packages.Package) *loader {
	l := &loader{st: st, fset: token.NewFileSet(), sizes: types.SizesFor("gc", st.goarch), trim: st.trim,
		nodes: map[string]*packages.Package{}, loaded: map[string]bool{}, isSourced: map[string]bool{}}
	for _, p := range all {
		n := &packages.Package{ID: p.ID, Name: p.Name, PkgPath: p.PkgPath, GoFiles: p.GoFiles, CompiledGoFiles: p.GoFiles,
			OtherFiles: p.OtherFiles, Module: p.Module, Fset: l.fset, TypesSizes: l.sizes, Imports: map[string]*packages.Package{}}
		l.nodes[p.ID] = n
		l.program = append(l.program, n)
	}
	for _, p := range all {
		for path, imp := range p.Imports {
			l.nodes[p.ID].Imports[path] = l.nodes[imp.ID]
		}
	}
	return l
}

// types sets a package's types (and its dependencies') from export data. A package with
// none stored is not needed by a type-checking, nor for facts or models (see exporting):
// it is made empty, and what of it is needed is declared in it as its importers' export
// data is read.
func (l *loader) types(p *packages.Package) error {
	if l.loaded[p.ID] {
		return nil
	}
	if l.fromSource[p.ID] {
		return l.source(p)
	}
	for _, path := range importPaths(p) {
		if err := l.types(p.Imports[path]); err != nil {
			return err
		}
	}
	l.loaded[p.ID] = true
	n := l.nodes[p.ID]
	if p.PkgPath == "unsafe" {
		n.Types = types.Unsafe
		return nil
	}
	k, ok := l.st.exportKey(p)
	if !ok {
		return fmt.Errorf("no types key for %s", p.ID)
	}
	data, ok := l.st.c.Get(k)
	switch {
	case !ok && l.st.c.Has(k):
		l.st.c.Remove(k) // damaged: written again by the full run
		return fmt.Errorf("the export data of %s is damaged", p.ID)
	case !ok:
		n.Types = types.NewPackage(p.PkgPath, p.Name)
	default:
		pkg, err := readExportData(data, l.fset, n)
		if err != nil {
			l.st.c.Remove(k)
			return fmt.Errorf("export data of %s: %v", p.ID, err)
		}
		n.Types = pkg
	}
	// Export data lists the packages its API mentions as imports; the analysis walks the
	// import graph (model resolution), so it gets the real one.
	var imps []*types.Package
	for _, imp := range n.Imports {
		imps = append(imps, imp.Types)
	}
	slices.SortFunc(imps, func(a, b *types.Package) int { return strings.Compare(a.Path(), b.Path()) })
	n.Types.SetImports(imps)
	return nil
}

// source parses and type-checks a package against its dependencies' types, once a run; a
// package whose types were read from export data (others refer to them) cannot be.
func (l *loader) source(p *packages.Package) error {
	if l.isSourced[p.ID] {
		return nil
	}
	if l.loaded[p.ID] {
		return fmt.Errorf("its types were read from export data")
	}
	for _, path := range importPaths(p) {
		if err := l.types(p.Imports[path]); err != nil {
			return err
		}
	}
	n := l.nodes[p.ID]
	if ok, err := typeCheck(n, l.trim, l.sizes); !ok || err != nil {
		return err
	}
	l.loaded[p.ID], l.isSourced[p.ID] = true, true
	l.sourced = append(l.sourced, n)
	return nil
}

// typeCheck parses and type-checks a changed package as go/packages would, against its
// imports' types. ok is false when it has errors or uses cgo (which takes the go command's
// preprocessing).
func typeCheck(n *packages.Package, trim Parser, sizes types.Sizes) (bool, error) {
	if trim == nil {
		return false, fmt.Errorf("no parsing rule (the models do not load)")
	}
	for _, name := range n.GoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return false, err
		}
		f, err := trim.ParseFile(n.Fset, name, src)
		if err != nil {
			return false, err
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == `"C"` {
				return false, fmt.Errorf("uses cgo")
			}
		}
		n.Syntax = append(n.Syntax, f)
	}
	n.Types = types.NewPackage(n.PkgPath, n.Name)
	n.TypesInfo = &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	var errs []error
	tc := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			if imp := n.Imports[path]; imp != nil && imp.Types != nil {
				return imp.Types, nil
			}
			return nil, fmt.Errorf("no types for %s", path)
		}),
		Error: func(err error) { errs = append(errs, err) },
		Sizes: sizes,
	}
	if n.Module != nil && n.Module.GoVersion != "" {
		tc.GoVersion = "go" + n.Module.GoVersion
	}
	types.NewChecker(tc, n.Fset, n.Types, n.TypesInfo).Files(n.Syntax)
	if len(errs) > 0 {
		return false, errs[0]
	}
	return true, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

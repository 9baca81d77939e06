package driver

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"os"
	"strings"
	"sync"

	"golang.org/x/tools/go/packages"
)

// A typeChecker parses and type-checks packages listed by go/packages without types (the
// metadata load, loadMode), one at a time, as go/packages does in its syntax mode: the
// same file set, sizes, errors (packages.Error values worded as go/packages words them),
// ill-typed marks and types.Info maps. Doing it here instead of in go/packages lets the
// driver analyse each dependency as soon as its imports are done and let go of its syntax
// (stream.go), where go/packages holds every package's syntax and types.Info until the end.
type typeChecker struct {
	fset  *token.FileSet
	parse func(fset *token.FileSet, name string, src []byte) (*ast.File, error)
	trim  *trimmer // nil: nothing was trimmed, nothing to forgive
}

func newTypeChecker(trim *trimmer) *typeChecker {
	tc := &typeChecker{fset: token.NewFileSet(), trim: trim, parse: parseFull}
	if trim != nil {
		tc.parse = trim.ParseFile
	}
	return tc
}

// parseFull is go/packages' default parse, but for object resolution (see trimmer).
func parseFull(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
	return parser.ParseFile(fset, name, src, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
}

// copyGraph returns fresh nodes for the packages listed and their dependencies, with their
// metadata and none of what type-checking sets, so that one listing can be analysed more
// than once (the command's tests analyse one load with several settings). roots are the
// copies of pkgs, in order.
func copyGraph(pkgs []*packages.Package) (roots, all []*packages.Package) {
	nodes := map[*packages.Package]*packages.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		n := &packages.Package{ID: p.ID, Name: p.Name, PkgPath: p.PkgPath, GoFiles: p.GoFiles, CompiledGoFiles: p.CompiledGoFiles,
			OtherFiles: p.OtherFiles, EmbedFiles: p.EmbedFiles, EmbedPatterns: p.EmbedPatterns, IgnoredFiles: p.IgnoredFiles,
			ExportFile: p.ExportFile, Module: p.Module, TypesSizes: p.TypesSizes, Errors: p.Errors[:len(p.Errors):len(p.Errors)],
			Imports: make(map[string]*packages.Package, len(p.Imports))}
		for path, imp := range p.Imports {
			n.Imports[path] = nodes[imp] // Visit is in postorder: imports first
		}
		nodes[p] = n
		all = append(all, n)
	})
	for _, p := range pkgs {
		roots = append(roots, nodes[p])
	}
	return roots, all
}

// check parses p's files and type-checks them against its imports' types, which must be
// set (their packages checked before). It sets Fset, Syntax, Types, TypesInfo, TypeErrors,
// Errors and IllTyped.
func (tc *typeChecker) check(p *packages.Package) {
	p.Fset = tc.fset
	if p.PkgPath == "unsafe" {
		p.Types, p.Syntax, p.TypesInfo = types.Unsafe, []*ast.File{}, newTypesInfo()
		return
	}
	p.Types = types.NewPackage(p.PkgPath, p.Name)
	p.Syntax = make([]*ast.File, 0, len(p.CompiledGoFiles))
	for _, name := range p.CompiledGoFiles {
		f, err := tc.parseFile(name)
		if f != nil {
			p.Syntax = append(p.Syntax, f)
		}
		if err != nil {
			appendError(p, err) // before any type error, as go/packages orders them
		}
	}
	p.TypesInfo = newTypesInfo()
	conf := &types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			if path == "unsafe" {
				return types.Unsafe, nil
			}
			imp := p.Imports[path]
			if imp == nil || imp.Types == nil {
				return nil, fmt.Errorf("no metadata for %s", path)
			}
			return imp.Types, nil
		}),
		Error: func(err error) { appendError(p, err) },
		Sizes: p.TypesSizes,
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	typErr := types.NewChecker(conf, tc.fset, p.Types, p.TypesInfo).Files(p.Syntax)
	if typErr != nil && len(p.Errors) == 0 && len(p.Syntax) > 0 && strings.HasPrefix(typErr.Error(), "package requires newer Go version") {
		appendError(p, types.Error{Fset: tc.fset, Pos: p.Syntax[0].Package, Msg: typErr.Error()})
	}
	if tc.trim != nil {
		tc.trim.forgive(p)
	} else {
		markIllTyped(p)
	}
}

func (tc *typeChecker) parseFile(name string) (*ast.File, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return tc.parse(tc.fset, name, src)
}

// appendError adds err to p's errors as go/packages converts it.
func appendError(p *packages.Package, err error) {
	switch err := err.(type) {
	case packages.Error:
		p.Errors = append(p.Errors, err)
	case *os.PathError:
		p.Errors = append(p.Errors, packages.Error{Pos: err.Path + ":1", Msg: err.Err.Error(), Kind: packages.ParseError})
	case scanner.ErrorList:
		for _, e := range err {
			p.Errors = append(p.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
		}
	case types.Error:
		p.TypeErrors = append(p.TypeErrors, err)
		p.Errors = append(p.Errors, packages.Error{Pos: err.Fset.Position(err.Pos).String(), Msg: err.Msg, Kind: packages.TypeError})
	default:
		p.Errors = append(p.Errors, packages.Error{Pos: "-", Msg: err.Error(), Kind: packages.UnknownError})
	}
}

// release lets go of what only p's own analysis reads: its syntax and types.Info. Its
// types stay (its importers' refer to them), as do its errors.
func release(p *packages.Package) {
	p.Syntax, p.TypesInfo = nil, nil
}

func newTypesInfo() *types.Info {
	return &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// inOrder runs do on every package of pkgs, each after the packages of pkgs it imports,
// on up to workers goroutines. Imports outside pkgs must be done already.
func inOrder(pkgs []*packages.Package, workers int, do func(*packages.Package)) {
	in := make(map[*packages.Package]bool, len(pkgs))
	for _, p := range pkgs {
		in[p] = true
	}
	pending := make(map[*packages.Package]int, len(pkgs))
	importers := map[*packages.Package][]*packages.Package{}
	ready := make(chan *packages.Package, len(pkgs))
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if in[imp] {
				pending[p]++
				importers[imp] = append(importers[imp], p)
			}
		}
		if pending[p] == 0 {
			ready <- p
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	left := len(pkgs)
	if left == 0 {
		return
	}
	done := make(chan struct{})
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case p := <-ready:
					do(p)
					mu.Lock()
					for _, q := range importers[p] {
						if pending[q]--; pending[q] == 0 {
							ready <- q
						}
					}
					if left--; left == 0 {
						close(done)
					}
					mu.Unlock()
				case <-done:
					return
				}
			}
		}()
	}
	wg.Wait()
}

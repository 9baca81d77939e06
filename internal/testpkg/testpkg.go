// Package testpkg type-checks a one-file package from source for the tests of the stages
// that read syntax and types (def-use index, sinks, call graph), so that each can be tested
// without building a whole analysis pass.
package testpkg

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

// Package is a parsed and type-checked package.
type Package struct {
	Fset *token.FileSet
	File *ast.File
	Pkg  *types.Package
	Info *types.Info
}

// Check parses and type-checks src as package path, importing the standard library from
// source; a type error fails the test.
func Check(t testing.TB, path, src string) *Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path+".go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	pkg, err := (&types.Config{Importer: importer.ForCompiler(fset, "source", nil)}).Check(path, fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	return &Package{Fset: fset, File: f, Pkg: pkg, Info: info}
}

// Func returns the declaration of the function named name.
func (p *Package) Func(t testing.TB, name string) *ast.FuncDecl {
	t.Helper()
	for _, d := range p.File.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == name {
			return fd
		}
	}
	t.Fatalf("no function %s", name)
	return nil
}

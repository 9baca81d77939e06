// Package testpkg type-checks a one-file package from source for the tests of the stages
// that read syntax and types (def-use index, sinks, call graph), so that each can be tested
// without building a whole analysis pass.
package testpkg

import (
	"go/ast"
	"go/constant"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/packages"
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

// Constants returns the package-level constants of the named type declared in the package
// at path (type-checked from its export data by go list), by name, with their values as
// int64: the members of an enumeration such as model.Shape, for a test that every member
// is handled wherever it must be. A package or a type that does not load fails the test.
func Constants(t testing.TB, path, typeName string) map[string]int64 {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedTypes}, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 || pkgs[0].Types == nil {
		t.Fatalf("loading %s: %v", path, pkgs)
	}
	scope := pkgs[0].Types.Scope()
	tn, ok := scope.Lookup(typeName).(*types.TypeName)
	if !ok {
		t.Fatalf("%s declares no type %s", path, typeName)
	}
	out := map[string]int64{}
	for _, name := range scope.Names() {
		c, ok := scope.Lookup(name).(*types.Const)
		if !ok || !types.Identical(c.Type(), tn.Type()) {
			continue
		}
		v, exact := constant.Int64Val(constant.ToInt(c.Val()))
		if !exact {
			t.Fatalf("%s.%s = %s is not an int64", path, name, c.Val())
		}
		out[name] = v
	}
	if len(out) == 0 {
		t.Fatalf("%s declares no constant of type %s", path, typeName)
	}
	return out
}

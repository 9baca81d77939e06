package analyzer_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/chokaq/idemlint/analyzer"
)

// Each directory with .golden files tests suggested fixes: its *.go.golden files are its
// files after every fix, and its // want comments state the diagnostics and facts as in
// TestAnalyzer.
//   - fixes: a directive that silences nothing carries a fix that removes it: its line when
//     it stands alone, the blanks before it when it trails code, and the "//" line it leaves
//     dangling at the end of a doc comment;
//   - decisionsfix: the decisions skeleton is inserted at the end of a handler's doc comment,
//     or above it;
//   - headerfix: the Idempotency-Key header line is added where the request is sent, from a
//     stable key in scope (eventID); never from a random one (traceID);
//   - wrapfix: a registration is wrapped with the runtime middleware when the file imports
//     the asynq adapter and exactly one middleware for asynq tasks is in scope; with two,
//     nothing.
func TestSuggestedFixes(t *testing.T) {
	for _, dir := range fixTests(t) {
		t.Run(dir, func(t *testing.T) {
			analysistest.RunWithSuggestedFixes(t, testdata(t), analyzer.Analyzer, packagesUnder(t, dir)...)
		})
	}
}

// The files the fixes produce must still compile: each package with golden files is
// type-checked with its golden files in place of the originals, its imports read from the
// stubs under testdata/src.
func TestGoldenFilesCompile(t *testing.T) {
	t.Setenv("GO111MODULE", "off")
	ctx := build.Default
	ctx.GOPATH = testdata(t)
	for _, pkg := range fixTests(t) {
		t.Run(pkg, func(t *testing.T) {
			dir := filepath.Join(testdata(t), "src", pkg)
			names, err := filepath.Glob(filepath.Join(dir, "*.go"))
			if err != nil || len(names) == 0 {
				t.Fatalf("no Go files in %s: %v", dir, err)
			}
			fset := token.NewFileSet()
			var files []*ast.File
			golden := 0
			for _, name := range names {
				src, err := os.ReadFile(name + ".golden")
				if err == nil {
					golden++
				} else if src, err = os.ReadFile(name); err != nil {
					t.Fatal(err)
				}
				f, err := parser.ParseFile(fset, name, src, 0)
				if err != nil {
					t.Fatal(err)
				}
				files = append(files, f)
			}
			if golden == 0 {
				t.Fatalf("%s has no golden files", pkg)
			}
			conf := types.Config{Importer: srcImporter(&ctx, fset)}
			if _, err := conf.Check(pkg, fset, files, nil); err != nil {
				t.Errorf("the fixed %s does not compile: %v", pkg, err)
			}
		})
	}
}

// srcImporter type-checks imports from source in the given build context (GOPATH mode).
func srcImporter(ctx *build.Context, fset *token.FileSet) types.Importer {
	pkgs := map[string]*types.Package{}
	var imp types.ImporterFrom
	imp = importerFunc(func(path, dir string) (*types.Package, error) {
		if path == "unsafe" {
			return types.Unsafe, nil
		}
		bp, err := ctx.Import(path, dir, 0)
		if err != nil {
			return nil, err
		}
		if p := pkgs[bp.ImportPath]; p != nil {
			return p, nil
		}
		var files []*ast.File
		for _, name := range bp.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(bp.Dir, name), nil, 0)
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
		conf := types.Config{Importer: imp, FakeImportC: true, Error: func(error) {}}
		p, err := conf.Check(bp.ImportPath, fset, files, nil)
		if p == nil {
			return nil, err
		}
		pkgs[bp.ImportPath] = p
		return p, nil
	})
	return imp
}

type importerFunc func(path, dir string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path, "") }
func (f importerFunc) ImportFrom(path, dir string, _ types.ImportMode) (*types.Package, error) {
	return f(path, dir)
}

package reuse

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/gcexportdata"

	"github.com/chokaq/idemlint/internal/cache"
)

// sigDep is a dependency whose types the signed package's API mentions.
const sigDep = `package dep

// T has fields and a method, which export data of an importer's API carries along.
type T struct {
	ID   string
	Size int
}

func (t T) Name() string { return t.ID }
`

// sigPkg is the package signed; its variants below each change what an importer can read,
// but for the last ones.
const sigPkg = `package p

import "example.com/dep"

const Limit = 3

type Job struct {
	Key dep.T
	n   int
}

func (j *Job) Run(id string) error { return nil }

func New(t dep.T) *Job { return &Job{Key: t} }

var Default = New(dep.T{})
`

// checkSource type-checks one file of package path against imports.
func checkSource(t *testing.T, fset *token.FileSet, path, name, src string, imports map[string]*types.Package) *types.Package {
	t.Helper()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	conf := types.Config{Importer: importerFunc(func(p string) (*types.Package, error) { return imports[p], nil })}
	pkg, err := conf.Check(path, fset, []*ast.File{f}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return pkg
}

// signSource signs src as package p, type-checked against dep from source, or against dep
// read from its export data (as a reuse run reads it).
func signSource(t *testing.T, src string, depFromExportData bool) (cache.Key, []byte) {
	t.Helper()
	fset := token.NewFileSet()
	dep := checkSource(t, fset, "example.com/dep", "/m/dep/dep.go", sigDep, nil)
	if depFromExportData {
		var buf bytes.Buffer
		if err := gcexportdata.Write(&buf, fset, dep); err != nil {
			t.Fatal(err)
		}
		fset = token.NewFileSet()
		var err error
		if dep, err = gcexportdata.Read(&buf, fset, map[string]*types.Package{}, "example.com/dep"); err != nil {
			t.Fatal(err)
		}
	}
	p := checkSource(t, fset, "example.com/p", "/m/p/p.go", src, map[string]*types.Package{"example.com/dep": dep})
	var data bytes.Buffer
	if err := gcexportdata.Write(&data, fset, p); err != nil {
		t.Fatal(err)
	}
	return apiSignature(fset, p), data.Bytes()
}

// A package signs the same whether its dependencies' types come from source (a full run)
// or from export data (a reuse run), though its export data differs between the two.
func TestAPISignatureIndependentOfHowDependenciesLoad(t *testing.T) {
	fromSource, dataFromSource := signSource(t, sigPkg, false)
	fromExport, dataFromExport := signSource(t, sigPkg, true)
	if fromSource != fromExport {
		t.Error("the signature depends on how the dependencies' types were loaded")
	}
	if bytes.Equal(dataFromSource, dataFromExport) {
		t.Log("export data is the same both ways: the signature could be its hash again")
	}
}

// What an importer can read changes the signature; a body or a trailing comment does not.
func TestAPISignatureChanges(t *testing.T) {
	base, _ := signSource(t, sigPkg, false)
	for _, c := range []struct {
		name, old, new string
		same           bool
	}{
		{"a constant's value", "Limit = 3", "Limit = 4", false},
		{"a field added", "\tn   int\n", "\tn   int\n\tm   int\n", false},
		{"a field's type", "\tn   int\n", "\tn   int64\n", false},
		{"a parameter renamed", "Run(id string)", "Run(key string)", false},
		{"a method added", "func New(", "func (j *Job) Stop() {}\n\nfunc New(", false},
		{"a declaration moved down a line", "const Limit", "\nconst Limit", false},
		{"a variable's type", "var Default = New(dep.T{})", "var Default = dep.T{}", false},
		{"a function body", "return nil }", "return error(nil) }", true},
		{"a trailing comment", "var Default = New(dep.T{})\n", "var Default = New(dep.T{})\n\n// The end.\n", true},
	} {
		src := strings.Replace(sigPkg, c.old, c.new, 1)
		if src == sigPkg {
			t.Fatalf("%s: no %q to edit", c.name, c.old)
		}
		got, _ := signSource(t, src, false)
		if (got == base) != c.same {
			t.Errorf("%s: signature unchanged = %v, want %v", c.name, got == base, c.same)
		}
	}
}

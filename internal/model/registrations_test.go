package model_test

import (
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/model"
)

// Every registration of every built-in model (each function of a registrations: entry) is
// called somewhere in the analyzer's test packages under testdata/src, so that some
// // want line depends on the handler it hands over being found. The test packages are
// type-checked the way analysistest loads them (GOPATH mode over testdata), and a call
// counts when its callee's full name is the registration's (major versions and type
// parameters aside, as the analyzer matches them). Name-alike methods of other types do
// not count, which a textual search could not tell apart.
func TestEveryRegistrationIsCalled(t *testing.T) {
	want := map[string][]string{} // normalised full name -> model files
	for _, lib := range model.Builtin() {
		for _, r := range lib.Registrations {
			n := registrationKey(r.Func)
			want[n] = append(want[n], filepath.Base(lib.Source))
		}
	}
	if len(want) == 0 {
		t.Fatal("the built-in models have no registrations")
	}

	called := map[string]bool{}
	for _, pkg := range loadTestPackages(t) {
		for _, f := range pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if fn, ok := typeutil.Callee(pkg.TypesInfo, call).(*types.Func); ok {
					called[registrationKey(fn.Origin().FullName())] = true
				}
				return true
			})
		}
	}
	for _, name := range sortedKeys(want) {
		if !called[name] {
			t.Errorf("%s: registration %s is called by no test package under testdata/src: register a handler with it in the model's test package, with // want lines on what the handler does", strings.Join(want[name], ", "), name)
		}
	}
}

// registrationKey is a full name as the analyzer matches it: major-version suffixes removed
// (model.Normalize) and a generic receiver's type parameters dropped.
func registrationKey(name string) string {
	name = model.Normalize(name)
	if i := strings.Index(name, "["); i >= 0 && strings.HasPrefix(name, "(") {
		if j := strings.Index(name[i:], "]"); j >= 0 {
			name = name[:i] + name[i+j+1:]
		}
	}
	return name
}

// loadTestPackages type-checks every test package under testdata/src (each top-level
// directory without a dot, with its subdirectories) against the stubs, in GOPATH mode as
// analysistest does. Packages with type errors (testdata/src/typeerrors tests them) are
// kept: their calls that type-check still count.
func loadTestPackages(t *testing.T) []*packages.Package {
	t.Helper()
	testdata, err := filepath.Abs(filepath.Join(root, "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(testdata, "src"))
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, e := range entries {
		if e.IsDir() && !strings.Contains(e.Name(), ".") {
			patterns = append(patterns, e.Name()+"/...")
		}
	}
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir:  filepath.Join(testdata, "src"),
		Env:  append(os.Environ(), "GOPATH="+testdata, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < len(patterns) {
		t.Fatalf("loaded %d packages for %d test directories", len(pkgs), len(patterns))
	}
	return pkgs
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

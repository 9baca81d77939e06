package driver

import (
	"fmt"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// probeFact marks every object a probe pass exports a fact on.
type probeFact struct{ By string }

func (*probeFact) AFact()           {}
func (f *probeFact) String() string { return "probe " + f.By }

// probePkgFact marks every package.
type probePkgFact struct{ By string }

func (*probePkgFact) AFact() {}

// probe exports a fact on each object of its package a fact can be on (functions, methods,
// variables, fields, types, constants, exported or not) and a package fact, and records
// what it sees of its imports' facts: through AllObjectFacts, ImportObjectFact on every
// object of every package below, and the package facts.
func probe(seen func(pkg string, what []string)) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "probe",
		Doc:        "records the facts a pass sees",
		FactTypes:  []analysis.Fact{new(probeFact), new(probePkgFact)},
		ResultType: reflect.TypeFor[bool](),
		Run: func(pass *analysis.Pass) (any, error) {
			for _, obj := range objectsOf(pass.Pkg) {
				pass.ExportObjectFact(obj, &probeFact{By: pass.Pkg.Path()})
			}
			pass.ExportPackageFact(&probePkgFact{By: pass.Pkg.Path()})
			var what []string
			for _, f := range pass.AllObjectFacts() {
				what = append(what, "all "+objectName(f.Object))
			}
			for _, f := range pass.AllPackageFacts() {
				what = append(what, "package "+f.Package.Path())
			}
			seenPkgs := map[*types.Package]bool{}
			var below func(p *types.Package)
			below = func(p *types.Package) {
				for _, imp := range p.Imports() {
					if !seenPkgs[imp] {
						seenPkgs[imp] = true
						below(imp)
					}
				}
			}
			below(pass.Pkg)
			for p := range seenPkgs {
				for _, obj := range objectsOf(p) {
					if pass.ImportObjectFact(obj, new(probeFact)) {
						what = append(what, "import "+objectName(obj))
					}
				}
				if pass.ImportPackageFact(p, new(probePkgFact)) {
					what = append(what, "import package "+p.Path())
				}
			}
			sort.Strings(what)
			seen(pass.Pkg.Path(), what)
			return true, nil
		},
	}
}

// objectsOf lists the package-level objects of pkg, the methods of its named types and the
// fields of its structs.
func objectsOf(pkg *types.Package) []types.Object {
	var out []types.Object
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		out = append(out, obj)
		tn, ok := obj.(*types.TypeName)
		if !ok {
			continue
		}
		if named, ok := tn.Type().(*types.Named); ok {
			for m := range named.Methods() {
				out = append(out, m)
			}
			if st, ok := named.Underlying().(*types.Struct); ok {
				for f := range st.Fields() {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

func objectName(obj types.Object) string {
	return fmt.Sprintf("%T %s.%s", obj, obj.Pkg().Path(), obj.Name())
}

// The dependencies' analysis (runPass, factStore) shows each pass the facts
// go/analysis/checker shows it, and no others: a package's own, those on what its direct
// imports export, and those on methods, fields, types and constants further down; package
// facts of every package below. Checked on a module where a imports b and c, b imports c
// and d, by running one probe analyzer both ways.
func TestDependencyFactsAreTheCheckers(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module probe\n\ngo 1.26\n",
		"d/d.go": "package d\n\nfunc Exported() {}\nfunc unexported() {}\n\nvar V = 1\n\ntype T struct{ F, g int }\n\nfunc (T) M() {}\nfunc (T) m() {}\n\nconst C = 1\n",
		"c/c.go": "package c\n\nfunc Exported() {}\nfunc unexported() {}\n\nvar V, w = 1, 2\n\ntype T struct{ F, g int }\n\nfunc (T) M() {}\nfunc (*T) m() {}\n\nconst C, c = 1, 2\n",
		"b/b.go": "package b\n\nimport (\n\t\"probe/c\"\n\t\"probe/d\"\n)\n\nfunc B() { c.Exported(); d.Exported() }\n\ntype U struct{ T c.T }\n",
		"a/a.go": "package a\n\nimport (\n\t\"probe/b\"\n\t\"probe/c\"\n)\n\nfunc A() { b.B(); c.Exported() }\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	record := func() (*analysis.Analyzer, map[string][]string) {
		var mu sync.Mutex
		got := map[string][]string{}
		return probe(func(pkg string, what []string) { mu.Lock(); got[pkg] = what; mu.Unlock() }), got
	}

	full, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir}, "./a")
	if err != nil {
		t.Fatal(err)
	}
	viaChecker, want := record()
	if _, err := checker.Analyze([]*analysis.Analyzer{viaChecker}, full, nil); err != nil {
		t.Fatal(err)
	}

	listed, err := packages.Load(&packages.Config{Mode: listMode, Dir: dir}, "./a")
	if err != nil {
		t.Fatal(err)
	}
	_, all := copyGraph(listed)
	viaDeps, got := record()
	res := runDeps(viaDeps, all, newTypeChecker(nil).check, 2, false)
	for pkg, err := range res.failed {
		t.Errorf("%s: %v", pkg.Path(), err)
	}

	for _, pkg := range []string{"probe/a", "probe/b", "probe/c", "probe/d"} {
		if want[pkg] == nil {
			t.Fatalf("the checker did not analyse %s", pkg)
		}
		if !slices.Equal(got[pkg], want[pkg]) {
			t.Errorf("%s sees:\n\t%s\nthe checker shows it:\n\t%s", pkg, strings.Join(got[pkg], "\n\t"), strings.Join(want[pkg], "\n\t"))
		}
	}
	// The test is only as good as its module: a sees less of d (below b only) than b does.
	if len(want["probe/a"]) == 0 || slices.Contains(want["probe/a"], "import *types.Func probe/d.Exported") ||
		!slices.Contains(want["probe/b"], "import *types.Func probe/d.Exported") {
		t.Errorf("the module does not tell direct imports from those further down:\n%v", want)
	}
	// What the dependencies' analysis leaves for the rounds: each package's own facts.
	for _, p := range all {
		r := res.restored()[p.Types]
		if r == nil || len(r.Packages) != 1 || len(r.Objects) != len(objectsOf(p.Types)) {
			t.Errorf("%s: restored %+v, want its %d object facts and its package fact", p.PkgPath, r, len(objectsOf(p.Types)))
		}
		if p.Syntax != nil || p.TypesInfo != nil {
			t.Errorf("%s: syntax kept after its analysis", p.PkgPath)
		}
	}
}

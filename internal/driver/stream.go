package driver

import (
	"fmt"
	"go/ast"
	"go/types"
	"log"
	"net/url"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
)

// Dependencies are analysed before the program, each once and as soon as its imports are,
// and let go of (release) when its pass ends: peak memory then follows the packages being
// analysed at one time, not the sum of the program, as in staticcheck's runner. What the
// program's analysis needs of them is kept: their types, their errors and the facts their
// analysis exported, which the program's passes read (program.go), or the checker's rounds
// restore (analyzer.Program.Restored), in place of analysing them again.
//
// A dependency is a package the patterns do not list (nor the main module, when the
// program is widened to it) from the standard library or a versioned module, below every
// package of the program: nothing a program-wide link resolves is in it, so the first
// round's view is the only one it has (rounds.Dependencies). The packages of the main
// module, and of workspace modules, are analysed in every round of the link (program.go).

// depResult is what the dependencies' analysis leaves for the program's.
type depResult struct {
	deps   []*packages.Package
	failed map[*types.Package]error // the packages whose analysis failed, with the error
	facts  *factStore               // the facts their analysis exported
}

// runDeps type-checks (check) and analyses deps, each after its imports, on up to
// workers goroutines, with a, which must be idemlint's analyzer made for the program's
// first round, and releases each one's syntax when its pass ends.
func runDeps(a *analysis.Analyzer, deps []*packages.Package, check func(*packages.Package), workers int, factLog bool) *depResult {
	st := newFactStore(nil)
	failed := map[*types.Package]error{}
	var mu sync.Mutex
	inOrder(deps, workers, func(p *packages.Package) {
		check(p)
		mu.Lock()
		err := failedPrerequisites(a, p, failed)
		mu.Unlock()
		if err == nil {
			_, err = runPass(a, p, st, factLog)
		}
		if err != nil {
			mu.Lock()
			failed[p.Types] = err
			mu.Unlock()
		}
		release(p)
	})
	return &depResult{deps: deps, failed: failed, facts: st}
}

// restored is what the checker's rounds restore of each dependency whose analysis
// succeeded (analyzer.Program.Restored): the facts it exported.
func (d *depResult) restored() map[*types.Package]*analyzer.Restored {
	out := map[*types.Package]*analyzer.Restored{}
	for _, p := range d.deps {
		if d.failed[p.Types] != nil {
			continue
		}
		r := &analyzer.Restored{}
		if f := d.facts.byPkg[p.Types]; f != nil {
			for _, k := range f.objects {
				r.Objects = append(r.Objects, analysis.ObjectFact{Object: k.obj, Fact: d.facts.objects[k]})
			}
			for _, t := range f.pkgOrder {
				r.Packages = append(r.Packages, f.pkg[t])
			}
		}
		out[p.Types] = r
	}
	return out
}

// failedPrerequisites is the checker's error for a package one of whose imports' analysis
// failed (failed is by package), nil when none did.
func failedPrerequisites(a *analysis.Analyzer, p *packages.Package, failed map[*types.Package]error) error {
	var prereq []string
	for _, imp := range p.Imports {
		if failed[imp.Types] != nil {
			prereq = append(prereq, a.Name+"@"+imp.ID)
		}
	}
	if prereq == nil {
		return nil
	}
	sort.Strings(prereq)
	return fmt.Errorf("failed prerequisites: %s", strings.Join(prereq, ", "))
}

// passOut is what one package's pass gave.
type passOut struct {
	res   any
	diags []analysis.Diagnostic // with their URLs resolved, as the checker resolves them
}

// runPass runs a on p as go/analysis/checker would: the same Pass, facts seen as the
// checker's actions pass them on (factStore), the result type checked.
func runPass(a *analysis.Analyzer, p *packages.Package, st *factStore, factLog bool) (*passOut, error) {
	if p.IllTyped && !a.RunDespiteErrors {
		return nil, fmt.Errorf("analysis skipped due to errors in package")
	}
	out := &passOut{}
	module := &analysis.Module{}
	if m := p.Module; m != nil {
		module = &analysis.Module{Path: m.Path, Version: m.Version, GoVersion: m.GoVersion}
	}
	view := &factView{st: st, pkg: p}
	running := true
	pass := &analysis.Pass{
		Analyzer:         a,
		Fset:             p.Fset,
		Files:            p.Syntax,
		OtherFiles:       p.OtherFiles,
		IgnoredFiles:     p.IgnoredFiles,
		Pkg:              p.Types,
		TypesInfo:        p.TypesInfo,
		TypesSizes:       p.TypesSizes,
		TypeErrors:       p.TypeErrors,
		Module:           module,
		ResultOf:         map[*analysis.Analyzer]any{},
		Report:           func(d analysis.Diagnostic) { out.diags = append(out.diags, d) },
		ImportObjectFact: view.importObject,
		ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
			if !running {
				log.Panicf("%s: Pass.ExportObjectFact(%s, %T) called after Run", p.ID, obj, fact)
			}
			if obj.Pkg() != p.Types {
				log.Panicf("internal error: in analysis %s of package %s: Fact.Set(%s, %T): can't set facts on objects belonging another package", a, p.ID, obj, fact)
			}
			st.exportObject(p.Types, obj, fact)
			if factLog {
				fmt.Fprintf(os.Stderr, "%s: object %s has fact %s\n", p.Fset.Position(obj.Pos()), types.ObjectString(obj, (*types.Package).Name), fact)
			}
		},
		ImportPackageFact: view.importPackage,
		ExportPackageFact: func(fact analysis.Fact) {
			if !running {
				log.Panicf("%s: Pass.ExportPackageFact(%T) called after Run", p.ID, fact)
			}
			st.exportPackage(p.Types, fact)
			if factLog && len(p.Syntax) > 0 {
				fmt.Fprintf(os.Stderr, "%s: package %s has fact %s\n", p.Fset.Position(p.Syntax[0].Pos()), p.PkgPath, fact)
			}
		},
		AllObjectFacts:  view.allObjects,
		AllPackageFacts: view.allPackages,
	}
	pass.ReadFile = func(name string) ([]byte, error) {
		readable := slices.Contains(p.OtherFiles, name) || slices.Contains(p.IgnoredFiles, name) ||
			slices.ContainsFunc(p.Syntax, func(f *ast.File) bool { return p.Fset.File(f.FileStart).Name() == name })
		if !readable {
			return nil, fmt.Errorf("Pass.ReadFile: %s is not among OtherFiles, IgnoredFiles, or names of Files", name)
		}
		return os.ReadFile(name)
	}
	res, err := a.Run(pass)
	running = false
	if err != nil {
		return nil, err
	}
	if got, want := reflect.TypeOf(res), a.ResultType; got != want {
		return nil, fmt.Errorf("internal error: on package %s, analyzer %s returned a result of type %v, but declared ResultType %v", p.PkgPath, a, got, want)
	}
	for i := range out.diags {
		u, err := resolveURL(a, out.diags[i])
		if err != nil {
			return nil, err
		}
		out.diags[i].URL = u
	}
	out.res = res
	return out, nil
}

// resolveURL is the checker's resolution of a diagnostic's URL (x/tools'
// internal/analysis/driverutil.ResolveURL): the analyzer's URL, with the category as the
// fragment when the diagnostic names no URL of its own.
func resolveURL(a *analysis.Analyzer, d analysis.Diagnostic) (string, error) {
	if d.URL == "" && d.Category == "" && a.URL == "" {
		return "", nil
	}
	raw := d.URL
	if d.URL == "" && d.Category != "" {
		raw = "#" + d.Category
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("invalid Diagnostic.URL %q: %s", raw, err)
	}
	base, err := url.Parse(a.URL)
	if err != nil {
		return "", fmt.Errorf("invalid Analyzer.URL %q: %s", a.URL, err)
	}
	return base.ResolveReference(u).String(), nil
}

type objectFactKey struct {
	obj types.Object
	t   reflect.Type
}

type packageFactKey struct {
	pkg *types.Package
	t   reflect.Type
}

// pkgFacts are the facts one package's analysis exported, in the order exported.
type pkgFacts struct {
	objects  []objectFactKey
	pkg      map[reflect.Type]analysis.Fact
	pkgOrder []reflect.Type
}

// factStore holds every dependency's facts once, where the checker copies them into each
// action; factView shows a pass the ones the checker would have passed on to it.
type factStore struct {
	mu      sync.RWMutex
	objects map[objectFactKey]analysis.Fact
	byPkg   map[*types.Package]*pkgFacts
	// below holds the facts of packages analysed before (the dependencies, for a round of
	// the program's packages), read but never written again; nil: none.
	below *factStore
}

func newFactStore(below *factStore) *factStore {
	return &factStore{objects: map[objectFactKey]analysis.Fact{}, byPkg: map[*types.Package]*pkgFacts{}, below: below}
}

// object is the fact of type t on obj, if any.
func (st *factStore) object(obj types.Object, t reflect.Type) (analysis.Fact, bool) {
	if st.below != nil {
		if f, ok := st.below.objects[objectFactKey{obj, t}]; ok {
			return f, true
		}
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	f, ok := st.objects[objectFactKey{obj, t}]
	return f, ok
}

// packageFact is pkg's package fact of type t, if any.
func (st *factStore) packageFact(pkg *types.Package, t reflect.Type) analysis.Fact {
	if st.below != nil {
		if f := st.below.byPkg[pkg]; f != nil {
			return f.pkg[t]
		}
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	if f := st.byPkg[pkg]; f != nil {
		return f.pkg[t]
	}
	return nil
}

// each calls f with every package's facts, those below first, holding the lock.
func (st *factStore) each(f func(pkg *types.Package, facts *pkgFacts, objects map[objectFactKey]analysis.Fact)) {
	if st.below != nil {
		for pkg, facts := range st.below.byPkg {
			f(pkg, facts, st.below.objects)
		}
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	for pkg, facts := range st.byPkg {
		f(pkg, facts, st.objects)
	}
}

func (st *factStore) facts(pkg *types.Package) *pkgFacts {
	f := st.byPkg[pkg]
	if f == nil {
		f = &pkgFacts{pkg: map[reflect.Type]analysis.Fact{}}
		st.byPkg[pkg] = f
	}
	return f
}

func (st *factStore) exportObject(pkg *types.Package, obj types.Object, fact analysis.Fact) {
	k := objectFactKey{obj, factType(fact)}
	st.mu.Lock()
	defer st.mu.Unlock()
	if _, ok := st.objects[k]; !ok {
		f := st.facts(pkg)
		f.objects = append(f.objects, k)
	}
	st.objects[k] = fact // clobber any existing entry, as the checker does
}

func (st *factStore) exportPackage(pkg *types.Package, fact analysis.Fact) {
	t := factType(fact)
	st.mu.Lock()
	defer st.mu.Unlock()
	f := st.facts(pkg)
	if _, ok := f.pkg[t]; !ok {
		f.pkgOrder = append(f.pkgOrder, t)
	}
	f.pkg[t] = fact
}

func factType(fact analysis.Fact) reflect.Type {
	t := reflect.TypeOf(fact)
	if t.Kind() != reflect.Pointer {
		log.Fatalf("invalid Fact type: got %T, want pointer", fact)
	}
	return t
}

// factView is the facts one pass sees. The checker passes an action's facts on to its
// importers, and on each step keeps only those on objects its package's export data holds
// (exportedFrom): a package sees the facts of its own objects; of the packages it imports
// directly, those on objects they export; and of every package below, those on methods,
// fields, type names and constants (which pass every step). Package facts pass every step.
type factView struct {
	st   *factStore
	pkg  *packages.Package
	cone map[*types.Package]bool // the packages below pkg (lazily)
}

func (v *factView) below(pkg *types.Package) bool {
	if v.cone == nil {
		v.cone = map[*types.Package]bool{}
		var walk func(p *packages.Package)
		walk = func(p *packages.Package) {
			for _, imp := range p.Imports {
				if imp.Types != nil && !v.cone[imp.Types] {
					v.cone[imp.Types] = true
					walk(imp)
				}
			}
		}
		walk(v.pkg)
	}
	return v.cone[pkg]
}

// sees reports whether the pass sees a fact on obj.
func (v *factView) sees(obj types.Object) bool {
	pkg := obj.Pkg()
	switch {
	case pkg == v.pkg.Types:
		return true
	case !v.below(pkg):
		return false
	case passesOn(obj):
		return true
	}
	for _, imp := range v.pkg.Imports {
		if imp.Types == pkg {
			return exportedFrom(obj, pkg)
		}
	}
	return false
}

func (v *factView) importObject(obj types.Object, ptr analysis.Fact) bool {
	if obj == nil {
		panic("nil object")
	}
	f, ok := v.st.object(obj, factType(ptr))
	if !ok || !v.sees(obj) {
		return false
	}
	reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
	return true
}

func (v *factView) importPackage(pkg *types.Package, ptr analysis.Fact) bool {
	if pkg == nil {
		panic("nil package")
	}
	if pkg != v.pkg.Types && !v.below(pkg) {
		return false
	}
	f := v.st.packageFact(pkg, factType(ptr))
	if f == nil {
		return false
	}
	reflect.ValueOf(ptr).Elem().Set(reflect.ValueOf(f).Elem())
	return true
}

func (v *factView) allObjects() []analysis.ObjectFact {
	var out []analysis.ObjectFact
	v.st.each(func(pkg *types.Package, f *pkgFacts, objects map[objectFactKey]analysis.Fact) {
		if pkg != v.pkg.Types && !v.below(pkg) {
			return
		}
		for _, k := range f.objects {
			if v.sees(k.obj) {
				out = append(out, analysis.ObjectFact{Object: k.obj, Fact: objects[k]})
			}
		}
	})
	return out
}

func (v *factView) allPackages() []analysis.PackageFact {
	var out []analysis.PackageFact
	v.st.each(func(pkg *types.Package, f *pkgFacts, _ map[objectFactKey]analysis.Fact) {
		if pkg != v.pkg.Types && !v.below(pkg) {
			return
		}
		for _, t := range f.pkgOrder {
			out = append(out, analysis.PackageFact{Package: pkg, Fact: f.pkg[t]})
		}
	})
	return out
}

// passesOn reports whether a fact on obj passes every step of the checker's filter
// (exportedFrom of any package): methods, fields, type names and constants.
func passesOn(obj types.Object) bool {
	switch obj := obj.(type) {
	case *types.Func:
		return obj.Signature().Recv() != nil
	case *types.Var:
		return obj.IsField()
	case *types.TypeName, *types.Const:
		return true
	}
	return false
}

// exportedFrom is go/analysis/checker's: whether obj is in pkg's export data, as far as
// the checker can tell.
func exportedFrom(obj types.Object, pkg *types.Package) bool {
	switch obj := obj.(type) {
	case *types.Func:
		return obj.Exported() && obj.Pkg() == pkg || obj.Signature().Recv() != nil
	case *types.Var:
		if obj.IsField() {
			return true
		}
		return obj.Pkg() == pkg
	case *types.TypeName, *types.Const:
		return true
	}
	return false
}

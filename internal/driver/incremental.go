package driver

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"log"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/result"
)

// maxChangedShare bounds the packages a run re-analyses by package: past a quarter of the
// program, a full run costs about as much and is simpler to trust.
const maxChangedShare = 4

// reuseRun answers a run from the package entries of earlier runs (reuse.go) when only a
// few packages changed: those whose first-round entry is missing, and every package that
// imports one, are parsed and type-checked against their dependencies' export data and
// analysed; every other package exports its stored facts. ok is false when the run must
// be a full one: too many packages changed, a package has errors or uses cgo, an entry
// or export data is missing, or a stored package's facts name an object its export data
// does not hold.
func reuseRun(cfg Config, st *pkgStore, meta []*packages.Package, named map[string]bool, start time.Time, progress *progress) (*Output, bool, error) {
	verbose := dbg(cfg.Debug, 'v')
	if cfg.fullSyntax {
		return nil, noReuse(verbose, "full syntax asked for"), nil
	}
	r := &reuse{st: st, meta: meta, verbose: verbose, decoded: map[*pkgEntry]*analyzer.Restored{}}
	if why := r.plan(); why != "" {
		return nil, noReuse(verbose, "%s", why), nil
	}
	count, ok := st.count(r.all)
	if !ok {
		return nil, noReuse(verbose, "the program's packages are not those of an earlier run"), nil
	}
	n := len(r.changed)

	progress.phase(fmt.Sprintf("type-checking %s", plural(n, "changed package")))
	l, ok, err := loadChanged(cfg, st, r.all, r.changed, verbose)
	progress.clear()
	if !ok || err != nil {
		return nil, false, err
	}
	r.load = l
	st.want = func(p *packages.Package) bool { return r.changed[p.ID] }

	progress.phase(fmt.Sprintf("analysing %s", plural(n, "changed package")))
	outs, err := linkProgram(func(p analyzer.Program, links link.Links) ([]*outcome, error) {
		return r.round(cfg.Analyzer, p, links)
	}, importCone(meta), verbose)
	progress.clear()
	if err == errNoReuse {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}

	run := &result.Run{Tool: Tool(), Root: st.root, Disabled: cfg.Disabled, Packages: count, Reused: len(r.all) - n}
	r.join(run, named, outs)
	if verbose {
		log.Printf("cache: %d packages from the cache, %d analysed", run.Reused, n)
	}
	run.Duration = time.Since(start)
	return &Output{Run: run}, true, nil
}

// reuse is the state of one reuseRun.
type reuse struct {
	st      *pkgStore
	meta    []*packages.Package // the program's packages (a full run's roots)
	verbose bool

	all     []*packages.Package  // meta and their dependencies, dependencies first
	first   map[string]*pkgEntry // the unchanged packages' first-round entries, by ID
	changed map[string]bool      // the packages analysed again, by ID
	load    *changedLoad

	current map[string]*pkgEntry             // the unchanged packages' entries for this round
	decoded map[*pkgEntry]*analyzer.Restored // their facts, decoded once: an entry serves several rounds
	graph   *checker.Graph                   // the last round's
}

// plan finds the changed packages: those without a first-round entry, and those that import
// one. It returns why the run must be a full one, or "".
func (r *reuse) plan() string {
	packages.Visit(r.meta, nil, func(p *packages.Package) { r.all = append(r.all, p) })
	r.first, r.changed = map[string]*pkgEntry{}, map[string]bool{}
	firstView := view(nil, analyzer.Program{}, nil)
	r.st.prefetch(r.all, func(*packages.Package) cache.Key { return firstView })
	for _, p := range r.all { // dependencies first
		if len(p.Errors) > 0 || (p.Module != nil && p.Module.Error != nil) {
			return p.ID + " has errors"
		}
		e, ok := r.st.get(p, firstView)
		if ok && e.Errors {
			return p.ID + " had errors"
		}
		changed := !ok || slices.ContainsFunc(slices.Collect(maps.Values(p.Imports)), func(imp *packages.Package) bool { return r.changed[imp.ID] })
		if changed {
			r.changed[p.ID] = true
		} else {
			r.first[p.ID] = e
		}
	}
	if len(r.changed)*maxChangedShare > len(r.all) {
		return fmt.Sprintf("%d of %d packages changed", len(r.changed), len(r.all))
	}
	r.current = r.first
	return ""
}

// round analyses the changed packages for one round of the link, the unchanged ones'
// facts restored from their entries for the round's view, and returns every program
// package's outcome: analysed now, or as stored.
func (r *reuse) round(a *analysis.Analyzer, p analyzer.Program, links link.Links) ([]*outcome, error) {
	restored, err := r.restore(p, links)
	if err != nil {
		return nil, err
	}
	p.Restored, p.Links = restored, positions(r.load.roots, links)
	pa, err := analyzer.ForProgram(a, p)
	if err != nil {
		return nil, err
	}
	rec := newRecorder(r.load.roots, r.st.hook(p, links))
	if r.graph, err = checker.Analyze([]*analysis.Analyzer{rec.wrap(pa, restored)}, r.load.roots, &checker.Options{}); err != nil {
		return nil, err
	}
	outcomes := map[string]*outcome{}
	for act := range r.graph.All() {
		if r.changed[act.Package.ID] {
			outcomes[act.Package.ID] = rec.outcome(act)
		}
	}
	var outs []*outcome
	for _, m := range r.meta {
		if !r.changed[m.ID] {
			outs = append(outs, r.current[m.ID].outcome(m.ID, m.PkgPath))
		} else if o := outcomes[m.ID]; o != nil {
			outs = append(outs, o)
		}
	}
	return outs, nil
}

// restore finds every unchanged package's entry for the round's view (the first round's
// are known) and decodes the facts of those the checker runs on (the changed packages'
// dependencies) against their types.
func (r *reuse) restore(p analyzer.Program, links link.Links) (map[*types.Package]*analyzer.Restored, error) {
	if p.Jobs != nil {
		r.current = map[string]*pkgEntry{}
		var unchanged []*packages.Package
		views := map[string]cache.Key{}
		for _, m := range r.all {
			if !r.changed[m.ID] {
				unchanged = append(unchanged, m)
				views[m.ID] = view(r.first[m.ID].outcome(m.ID, m.PkgPath), p, links)
			}
		}
		r.st.prefetch(unchanged, func(m *packages.Package) cache.Key { return views[m.ID] })
		for _, m := range unchanged {
			e, ok := r.st.get(m, views[m.ID])
			if !ok {
				noReuse(r.verbose, "%s was not analysed with these links before", m.ID)
				return nil, errNoReuse
			}
			r.current[m.ID] = e
		}
	}
	restored := map[*types.Package]*analyzer.Restored{}
	for id, node := range r.load.nodes {
		if r.changed[id] {
			continue
		}
		e := r.current[id]
		facts, ok := r.decoded[e]
		if !ok {
			if facts, ok = r.st.decodeFacts(e, node.Types); !ok {
				noReuse(r.verbose, "%s: a stored fact names an object its export data does not hold", id)
				return nil, errNoReuse
			}
			r.decoded[e] = facts
		}
		restored[node.Types] = facts
	}
	return restored, nil
}

// join makes the run's result from the program's packages (the named ones: see Loaded),
// analysed in the last round or stored, as a full run's converter would.
func (r *reuse) join(run *result.Run, named map[string]bool, outs []*outcome) {
	conv := &converter{run: run, root: r.st.root}
	conv.index(r.load.program)
	conv.impls = newImplementations(outs)
	acts := map[string]*checker.Action{}
	for act := range r.graph.All() {
		acts[act.Package.ID] = act
		if act.Err != nil && r.changed[act.Package.ID] {
			run.Errors = append(run.Errors, result.Error{Package: act.Package.ID, Message: act.Err.Error()})
		}
	}
	for _, p := range r.meta {
		switch act := acts[p.ID]; {
		case named != nil && !named[p.ID]:
		case !r.changed[p.ID]:
			if out := r.current[p.ID].Output; out != nil {
				conv.add(p.Name, out)
			}
		case act != nil && act.Err == nil:
			res, _ := act.Result.(*analyzer.Result) // a root's result: the changed packages are the roots
			conv.action(act.Package, act.Diagnostics, res)
		}
	}
	conv.finish()
}

// changedLoad is the program as reuseRun analyses it: the changed packages parsed and
// type-checked (the checker's roots), their dependencies' types from export data, one node
// per package of the program.
type changedLoad struct {
	fset    *token.FileSet
	roots   []*packages.Package
	nodes   map[string]*packages.Package // by ID: the changed packages and their dependencies
	program []*packages.Package          // a node for every package (for the converter's index)
}

// loadChanged reads the export data of the changed packages' dependencies and type-checks
// the changed packages. ok is false (a full run) when export data is missing or a changed
// package does not type-check cleanly.
func loadChanged(cfg Config, st *pkgStore, all []*packages.Package, changed map[string]bool, verbose bool) (*changedLoad, bool, error) {
	l := &changedLoad{fset: token.NewFileSet(), nodes: map[string]*packages.Package{}}
	need := map[string]bool{}
	for i := len(all) - 1; i >= 0; i-- { // importers first
		p := all[i]
		if changed[p.ID] || need[p.ID] {
			for _, imp := range p.Imports {
				need[imp.ID] = true
			}
		}
	}
	sizes := types.SizesFor("gc", st.goarch)
	node := func(p *packages.Package) *packages.Package {
		n := &packages.Package{ID: p.ID, Name: p.Name, PkgPath: p.PkgPath, GoFiles: p.GoFiles, CompiledGoFiles: p.GoFiles,
			OtherFiles: p.OtherFiles, Module: p.Module, Fset: l.fset, TypesSizes: sizes, Imports: map[string]*packages.Package{}}
		l.program = append(l.program, n)
		return n
	}
	nodes := map[string]*packages.Package{}
	for _, p := range all {
		nodes[p.ID] = node(p)
	}
	for _, p := range all {
		for path, imp := range p.Imports {
			nodes[p.ID].Imports[path] = nodes[imp.ID]
		}
	}
	for _, p := range all { // dependencies first, so that each package is read whole
		if !need[p.ID] || changed[p.ID] {
			continue
		}
		n := nodes[p.ID]
		l.nodes[p.ID] = n
		if p.PkgPath == "unsafe" {
			n.Types = types.Unsafe
			continue
		}
		k := st.exportKey(p.ID)
		data, ok := st.c.Get(k)
		if !ok && st.c.Has(k) {
			st.c.Remove(k) // damaged: written again by the full run
			return nil, noReuse(verbose, "the export data of %s is damaged", p.ID), nil
		}
		if !ok {
			// Not needed by a changed package's type-checking, nor for facts or models (see
			// exporting): what of it is needed is declared in it as its importers' export
			// data is read.
			n.Types = types.NewPackage(p.PkgPath, p.Name)
			continue
		}
		pkg, err := readExportData(data, l.fset, n)
		if err != nil {
			st.c.Remove(k)
			return nil, noReuse(verbose, "export data of %s: %v", p.ID, err), nil
		}
		n.Types = pkg
	}
	// Export data lists the packages its API mentions as imports; the analysis walks the
	// import graph (model resolution), so it gets the real one.
	for id := range l.nodes {
		n := l.nodes[id]
		if n.Types == types.Unsafe {
			continue
		}
		var imps []*types.Package
		for _, imp := range n.Imports {
			if imp.Types != nil {
				imps = append(imps, imp.Types)
			}
		}
		slices.SortFunc(imps, func(a, b *types.Package) int { return strings.Compare(a.Path(), b.Path()) })
		n.Types.SetImports(imps)
	}
	trim := st.trim
	if trim == nil {
		trim = newTrimmer(cfg.Analyzer)
	}
	for _, p := range all {
		if !changed[p.ID] {
			continue
		}
		n := nodes[p.ID]
		if ok, err := typeCheck(n, trim, sizes); !ok || err != nil {
			return nil, noReuse(verbose, "%s: %v", p.ID, err), nil
		}
		l.nodes[p.ID] = n
		l.roots = append(l.roots, n)
	}
	return l, true, nil
}

// typeCheck parses and type-checks a changed package as go/packages would, against its
// imports' types. ok is false when it has errors or uses cgo (which takes the go command's
// preprocessing).
func typeCheck(n *packages.Package, trim *trimmer, sizes types.Sizes) (bool, error) {
	for _, name := range n.GoFiles {
		src, err := os.ReadFile(name)
		if err != nil {
			return false, err
		}
		f, err := trim.parse(n.Fset, name, src)
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

// importsOf maps the paths of every package n imports, directly or not, to its types: the
// packages its export data refers to. The map is n's own: with test variants, two packages
// of one path (p and p [p.test]) are in the program, and each dependency of n must be the
// one n was compiled against.
func importsOf(n *packages.Package) map[string]*types.Package {
	m := map[string]*types.Package{}
	var walk func(p *packages.Package)
	walk = func(p *packages.Package) {
		for _, imp := range p.Imports {
			if _, seen := m[imp.PkgPath]; seen || imp.Types == nil {
				continue
			}
			m[imp.PkgPath] = imp.Types
			walk(imp)
		}
	}
	walk(n)
	return m
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

package driver

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"log"
	"os"
	"slices"
	"strings"
	"sync"
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
// few packages changed. Round by round, in waves: every package whose imports are signed
// (signature.go) looks up its entry; those without one are parsed and type-checked
// against their dependencies' export data and analysed, which signs them, and their
// importers look theirs up in the next wave. An edit that leaves a package's declarations
// and facts as they were therefore stops at that package. ok is false when the run must be a
// full one: too many packages changed, a package has errors or uses cgo, export data is
// missing, or a stored package's facts name an object its export data does not hold.
// Packages whose types were read from export data and that need analysing in a later round
// (their views changed with the links) make the run start again, with those packages parsed
// and type-checked from source from the first round on.
func reuseRun(cfg Config, st *pkgStore, meta []*packages.Package, named map[string]bool, start time.Time, progress *progress) (*Output, bool, error) {
	verbose := dbg(cfg.Debug, 'v')
	if cfg.fullSyntax {
		return nil, noReuse(verbose, "full syntax asked for"), nil
	}
	fromSource := map[string]bool{}
	for range maxRounds { // each start parses from source what the one before found late
		out, ok, err := reuseOnce(cfg, st, meta, named, start, progress, fromSource)
		var late lateSource
		if !errors.As(err, &late) {
			return out, ok, err
		}
		if verbose {
			log.Printf("cache: starting again, %s parsed from the first round: %v", strings.Join(late.ids, ", "), err)
		}
		for _, id := range late.ids {
			fromSource[id] = true
		}
	}
	return nil, noReuse(verbose, "packages kept needing analysis in later rounds"), nil
}

// lateSource is the error of packages that need analysing in a later round after their
// types were read from export data (others' types refer to them).
type lateSource struct{ ids []string }

func (e lateSource) Error() string {
	return plural(len(e.ids), "package") + " to analyse whose types were read from export data in an earlier round"
}

// reuseOnce is one start of reuseRun; fromSource names the packages to parse and
// type-check from source whenever their types are needed.
func reuseOnce(cfg Config, st *pkgStore, meta []*packages.Package, named map[string]bool, start time.Time, progress *progress, fromSource map[string]bool) (*Output, bool, error) {
	verbose := dbg(cfg.Debug, 'v')
	r := newReuse(cfg, st, meta, verbose)
	r.load.fromSource = fromSource
	for _, p := range r.all {
		if len(p.Errors) > 0 || (p.Module != nil && p.Module.Error != nil) {
			return nil, noReuse(verbose, "%s has errors", p.ID), nil
		}
	}
	count, ok := st.count(r.all)
	if !ok {
		return nil, noReuse(verbose, "the program's packages are not those of an earlier run"), nil
	}
	st.want = func(p *packages.Package) bool { return r.load.isSourced[p.ID] }

	outs, err := linkProgram(func(p analyzer.Program, links link.Links) ([]*outcome, error) {
		return r.round(p, links, progress)
	}, importCone(meta), verbose)
	progress.clear()
	if err == errNoReuse {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}

	n := len(r.load.sourced)
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
	st       *pkgStore
	analyzer *analysis.Analyzer
	meta     []*packages.Package // the program's packages (a full run's roots)
	verbose  bool

	all     []*packages.Package   // meta and their dependencies, dependencies first
	levels  [][]*packages.Package // all by depth: a package's imports are in lower levels
	load    *loader
	decoded map[*pkgEntry]*analyzer.Restored // stored facts, decoded once: an entry serves several rounds

	// A round's state.
	current map[string]*pkgEntry          // the entries of the packages not analysed, by ID
	acts    map[string]*checker.Action    // the analyses of those analysed (the waves' roots)
	outs    map[string]*outcome           // their outcomes
	fresh   map[string]*analyzer.Restored // their facts, as a later wave restores them
	mu      sync.Mutex                    // guards fresh (the passes run in parallel)
}

func newReuse(cfg Config, st *pkgStore, meta []*packages.Package, verbose bool) *reuse {
	r := &reuse{st: st, analyzer: cfg.Analyzer, meta: meta, verbose: verbose, decoded: map[*pkgEntry]*analyzer.Restored{}}
	packages.Visit(meta, nil, func(p *packages.Package) { r.all = append(r.all, p) })
	depth := map[string]int{}
	for _, p := range r.all {
		d := 0
		for _, imp := range p.Imports {
			d = max(d, depth[imp.ID]+1)
		}
		depth[p.ID] = d
		for len(r.levels) <= d {
			r.levels = append(r.levels, nil)
		}
		r.levels[d] = append(r.levels[d], p)
	}
	r.load = newLoader(cfg, st, r.all)
	return r
}

// round analyses the program for one round of the link (see reuseRun) and returns every
// program package's outcome: analysed now, or as stored.
func (r *reuse) round(p analyzer.Program, links link.Links, progress *progress) ([]*outcome, error) {
	rs := newRoundSigs()
	r.current, r.acts, r.outs, r.fresh = map[string]*pkgEntry{}, map[string]*checker.Action{}, map[string]*outcome{}, map[string]*analyzer.Restored{}
	for {
		dirty, err := r.resolve(p, links, rs)
		if err != nil {
			return nil, err
		}
		if len(dirty) == 0 {
			break
		}
		progress.phase(fmt.Sprintf("analysing %s", plural(len(dirty), "changed package")))
		err = r.analyse(p, links, rs, dirty)
		progress.clear()
		if err != nil {
			return nil, err
		}
	}
	for _, q := range r.all {
		if r.current[q.ID] == nil && r.acts[q.ID] == nil {
			noReuse(r.verbose, "%s: an import's analysis gave no signature", q.ID)
			return nil, errNoReuse
		}
	}
	var outs []*outcome
	for _, m := range r.meta {
		if e := r.current[m.ID]; e != nil {
			outs = append(outs, e.outcome(m.ID, m.PkgPath))
		} else if o := r.outs[m.ID]; o != nil {
			outs = append(outs, o)
		}
	}
	return outs, nil
}

// resolve looks up the entry of every package of the round not yet settled whose imports
// are signed, level by level (each level's entries read on every CPU), and signs those
// found. It returns the packages without one: the next to analyse.
func (r *reuse) resolve(p analyzer.Program, links link.Links, rs *roundSigs) ([]*packages.Package, error) {
	var dirty []*packages.Package
	for _, level := range r.levels {
		var ready []*packages.Package
		keys := map[string]cache.Key{}
		for _, q := range level {
			if r.current[q.ID] != nil || r.acts[q.ID] != nil {
				continue
			}
			if k, ok := r.st.entryKey(q, rs, view(r.st.firstOf(q.ID), p, links)); ok {
				ready = append(ready, q)
				keys[q.ID] = k
			}
		}
		r.st.prefetch(ready, func(q *packages.Package) cache.Key { return keys[q.ID] })
		for _, q := range ready {
			e, ok := r.st.get(q, keys[q.ID])
			if ok && e.Errors {
				noReuse(r.verbose, "%s had errors", q.ID)
				return nil, errNoReuse
			}
			if ok && r.sign(q, e, rs) {
				r.current[q.ID] = e
				if p.Jobs == nil {
					r.st.setFirst(e.outcome(q.ID, q.PkgPath))
				}
				continue
			}
			dirty = append(dirty, q)
		}
	}
	return dirty, nil
}

// sign signs a package in rs from its stored entry.
func (r *reuse) sign(q *packages.Package, e *pkgEntry, rs *roundSigs) bool {
	typeSig, ok := r.st.storedTypeSig(q, e)
	if !ok {
		return false
	}
	sig, ok := factSig(q, typeSig, e.Facts, rs)
	if ok {
		rs.set(q.ID, sig)
	}
	return ok
}

// analyse type-checks the dirty packages from source, if not yet, and analyses them for the
// round, every package below them exporting its facts: stored, or from an earlier wave.
func (r *reuse) analyse(p analyzer.Program, links link.Links, rs *roundSigs, dirty []*packages.Package) error {
	n := len(r.load.sourced)
	for _, q := range dirty {
		if !r.load.isSourced[q.ID] {
			n++
		}
	}
	if n*maxChangedShare > len(r.all) {
		noReuse(r.verbose, "%d of %d packages changed", n, len(r.all))
		return errNoReuse
	}
	var late lateSource
	for _, q := range dirty {
		if r.load.loaded[q.ID] && !r.load.isSourced[q.ID] {
			late.ids = append(late.ids, q.ID)
		}
	}
	if len(late.ids) > 0 {
		return late
	}
	var roots []*packages.Package
	for _, q := range dirty {
		if err := r.load.source(q); err != nil {
			noReuse(r.verbose, "%s: %v", q.ID, err)
			return errNoReuse
		}
		roots = append(roots, r.load.nodes[q.ID])
	}
	restored := map[*types.Package]*analyzer.Restored{}
	var missing error
	packages.Visit(roots, nil, func(n *packages.Package) {
		if slices.Contains(roots, n) || missing != nil {
			return
		}
		facts, err := r.restore(n)
		if err != nil {
			missing = err
		}
		restored[n.Types] = facts
	})
	if missing != nil {
		noReuse(r.verbose, "%v", missing)
		return errNoReuse
	}
	p.Restored, p.Links = restored, positions(r.load.sourced, links)
	pa, err := analyzer.ForProgram(r.analyzer, p)
	if err != nil {
		return err
	}
	hook := r.st.hook(p, links, rs)
	rec := newRecorder(roots, func(pr passRecord, o *outcome) {
		hook(pr, o)
		r.mu.Lock()
		r.fresh[pr.pkg.ID] = &analyzer.Restored{Objects: pr.facts, Packages: pr.pkgFacts}
		r.mu.Unlock()
	})
	graph, err := checker.Analyze([]*analysis.Analyzer{rec.wrap(pa, restored)}, roots, &checker.Options{})
	if err != nil {
		return err
	}
	for _, act := range graph.Roots {
		r.acts[act.Package.ID] = act
		if o := rec.outcome(act); o != nil {
			r.outs[act.Package.ID] = o
		}
	}
	return nil
}

// restore is what a package below the analysed ones exports in the round: the facts of its
// analysis in an earlier wave, or its entry's, decoded against its types.
func (r *reuse) restore(n *packages.Package) (*analyzer.Restored, error) {
	if facts := r.fresh[n.ID]; facts != nil {
		return facts, nil
	}
	e := r.current[n.ID]
	if e == nil {
		return nil, fmt.Errorf("%s: neither stored nor analysed", n.ID)
	}
	facts, ok := r.decoded[e]
	if !ok {
		if facts, ok = r.st.decodeFacts(e, n.Types); !ok {
			return nil, fmt.Errorf("%s: a stored fact names an object its export data does not hold", n.ID)
		}
		r.decoded[e] = facts
	}
	return facts, nil
}

// join makes the run's result from the program's packages (the named ones: see Loaded),
// analysed in the last round or stored, as a full run's converter would.
func (r *reuse) join(run *result.Run, named map[string]bool, outs []*outcome) {
	conv := &converter{run: run, root: r.st.root}
	conv.index(r.load.program)
	conv.impls = newImplementations(outs)
	for _, q := range r.all {
		if act := r.acts[q.ID]; act != nil && act.Err != nil {
			run.Errors = append(run.Errors, result.Error{Package: act.Package.ID, Message: act.Err.Error()})
		}
	}
	for _, p := range r.meta {
		switch act := r.acts[p.ID]; {
		case named != nil && !named[p.ID]:
		case act == nil:
			if out := r.current[p.ID].Output; out != nil {
				conv.add(p.Name, out)
			}
		case act.Err == nil:
			res, _ := act.Result.(*analyzer.Result) // a root's result: the analysed packages are the roots
			conv.action(act.Package, act.Diagnostics, res)
		}
	}
	conv.finish()
}

// loader gives reuseRun the types of the program's packages as it needs them: read from
// export data, or parsed and type-checked from source for the packages it analyses. A
// package is loaded after its dependencies, so that each is read whole.
type loader struct {
	st    *pkgStore
	fset  *token.FileSet
	sizes types.Sizes
	trim  *trimmer

	nodes     map[string]*packages.Package // a node for every package of the program, by ID
	program   []*packages.Package          // the same, for the converter's index
	loaded    map[string]bool              // by ID: its types are set
	sourced   []*packages.Package          // type-checked from source, in order
	isSourced map[string]bool
	// fromSource names the packages to type-check from source even when only their types
	// are needed (see reuseRun).
	fromSource map[string]bool
}

func newLoader(cfg Config, st *pkgStore, all []*packages.Package) *loader {
	l := &loader{st: st, fset: token.NewFileSet(), sizes: types.SizesFor("gc", st.goarch), trim: st.trim,
		nodes: map[string]*packages.Package{}, loaded: map[string]bool{}, isSourced: map[string]bool{}}
	if l.trim == nil {
		l.trim = newTrimmer(cfg.Analyzer)
	}
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

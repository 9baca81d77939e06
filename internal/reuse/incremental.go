package reuse

import (
	"errors"
	"fmt"
	"go/types"
	"log"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/pkgout"
	"github.com/chokaq/idemlint/internal/result"
	"github.com/chokaq/idemlint/internal/rounds"
)

// maxChangedShare bounds the packages a run re-analyses by package: past a quarter of the
// program, a full run costs about as much and is simpler to trust.
const maxChangedShare = 4

// reuseRun answers a run from the package entries of earlier runs (store.go) when only a
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
func reuseRun(cfg Inputs, st *pkgStore, meta []*packages.Package, named map[string]bool) (*result.Run, bool, error) {
	verbose := cfg.Verbose
	if cfg.FullSyntax {
		return nil, noReuse(verbose, "full syntax asked for"), nil
	}
	fromSource := map[string]bool{}
	for range rounds.MaxRounds { // each start parses from source what the one before found late
		out, ok, err := reuseOnce(cfg, st, meta, named, fromSource)
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
func reuseOnce(cfg Inputs, st *pkgStore, meta []*packages.Package, named map[string]bool, fromSource map[string]bool) (*result.Run, bool, error) {
	verbose := cfg.Verbose
	progress := cfg.Progress
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

	outs, err := rounds.Link(func(p analyzer.Program, links link.Links) ([]*rounds.Outcome, error) {
		return r.round(p, links, progress)
	}, rounds.ImportCone(meta), reportedIn(named), verbose)
	progress.Clear()
	if err == errNoReuse {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}

	n := len(r.load.sourced)
	run := &result.Run{Tool: cfg.Tool, Root: st.root, Disabled: cfg.Disabled, Packages: count, Reused: len(r.all) - n}
	r.join(run, named, outs)
	if verbose {
		log.Printf("cache: %d packages from the cache, %d analysed", run.Reused, n)
	}
	return run, true, nil
}

// reuse is the state of one reuseRun.
type reuse struct {
	st       *pkgStore
	analyzer *analysis.Analyzer
	meta     []*packages.Package // the program's packages (a full run's roots)
	deps     map[string]bool     // the IDs of the packages a full run analyses in the first round only (rounds.Dependencies)
	verbose  bool

	all     []*packages.Package   // meta and their dependencies, dependencies first
	levels  [][]*packages.Package // all by depth: a package's imports are in lower levels
	load    *loader
	decoded map[*pkgEntry]*analyzer.Restored // stored facts, decoded once: an entry serves several rounds

	// A round's state.
	current map[string]*pkgEntry          // the entries of the packages not analysed, by ID
	acts    map[string]*checker.Action    // the analyses of those analysed (the waves' roots)
	outs    map[string]*rounds.Outcome    // their outcomes
	fresh   map[string]*analyzer.Restored // their facts, as a later wave restores them
	mu      sync.Mutex                    // guards fresh (the passes run in parallel)
}

func newReuse(cfg Inputs, st *pkgStore, meta []*packages.Package, verbose bool) *reuse {
	r := &reuse{st: st, analyzer: cfg.Analyzer, meta: meta, deps: rounds.Dependencies(meta), verbose: verbose, decoded: map[*pkgEntry]*analyzer.Restored{}}
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
	r.load = newLoader(st, r.all)
	return r
}

// round analyses the program for one round of the link (see reuseRun) and returns every
// program package's outcome: analysed now, or as stored.
func (r *reuse) round(p analyzer.Program, links link.Links, progress Progress) ([]*rounds.Outcome, error) {
	rs := newRoundSigs()
	r.current, r.acts, r.outs, r.fresh = map[string]*pkgEntry{}, map[string]*checker.Action{}, map[string]*rounds.Outcome{}, map[string]*analyzer.Restored{}
	for {
		dirty, err := r.resolve(p, links, rs)
		if err != nil {
			return nil, err
		}
		if len(dirty) == 0 {
			break
		}
		progress.Phase(fmt.Sprintf("analysing %s", plural(len(dirty), "changed package")))
		err = r.analyse(p, links, rs, dirty)
		progress.Clear()
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
	var outs []*rounds.Outcome
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
			view := viewKey(r.st.firstOf(q.ID), p, links)
			if r.deps[q.ID] {
				view = viewKey(nil, analyzer.Program{}, nil) // analysed in the first round only, as a full run does
			}
			if k, ok := r.st.entryKey(q, rs, view); ok {
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
	typeSig, ok := r.st.storedTypeSig(q, e.Types)
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
	p.Restored, p.Links = restored, rounds.Positions(r.load.sourced, links)
	pa, err := analyzer.ForProgram(r.analyzer, p)
	if err != nil {
		return err
	}
	hook := r.st.hook(p, links, rs)
	rec := rounds.NewRecorder(roots, func(pr rounds.PassRecord, o *rounds.Outcome) {
		hook(pr, o)
		r.mu.Lock()
		r.fresh[pr.Pkg.ID] = &analyzer.Restored{Objects: pr.Facts, Packages: pr.PkgFacts}
		r.mu.Unlock()
	})
	graph, err := checker.Analyze([]*analysis.Analyzer{rec.Wrap(pa, restored)}, roots, &checker.Options{})
	if err != nil {
		return err
	}
	for _, act := range graph.Roots {
		r.acts[act.Package.ID] = act
		if o := rec.Outcome(act); o != nil {
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
		if facts, ok = r.st.facts.decodeFacts(e.Facts, n.Types); !ok {
			return nil, fmt.Errorf("%s: a stored fact names an object its export data does not hold", n.ID)
		}
		r.decoded[e] = facts
	}
	return facts, nil
}

// join makes the run's result from the program's packages (the named ones), analysed in
// the last round or stored, as a full run joins them.
func (r *reuse) join(run *result.Run, named map[string]bool, outs []*rounds.Outcome) {
	conv := pkgout.NewJoiner(run, r.st.root, r.load.program, pkgout.NewImplementations(rounds.Summaries(outs)))
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
				conv.Add(p.Name, out)
			}
		case act.Err == nil:
			res, _ := act.Result.(*analyzer.Result) // a root's result: the analysed packages are the roots
			conv.Action(act.Package, act.Diagnostics, res)
		}
	}
	conv.Finish()
}

// errNoReuse stops a reuse run that finds it cannot answer as a full run would.
var errNoReuse = errors.New("the cache cannot answer this run by package")

// noReuse logs why a run is not answered by package.
func noReuse(verbose bool, format string, args ...any) bool {
	if verbose {
		log.Printf("cache: analysing in full: "+format, args...)
	}
	return false
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// reportedIn answers which packages' findings a run reports (by ID) from the named set:
// every package's when it is nil (the patterns are the program).
func reportedIn(named map[string]bool) func(id string) bool {
	if named == nil {
		return nil
	}
	return func(id string) bool { return named[id] }
}

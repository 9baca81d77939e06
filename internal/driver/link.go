package driver

import (
	"go/token"
	"go/types"
	"log"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/frameworks"
	"github.com/chokaq/idemlint/internal/link"
)

// maxRounds bounds the analyses of a program-wide link: the first finds the open calls, a
// second resolves them, a third settles an implementation whose own open calls a link
// resolved. Loading and type-checking are done once; a round only runs the analyzer again,
// a small part of a run's cost.
const maxRounds = 3

// outcome is what one package's analysis in one round gives the program-wide link and the
// output, from this run's analysis or from the cache (reuse.go).
type outcome struct {
	id, path string
	summary  *link.Summary // nil when the package's analysis made none (it failed)
	jobs     []frameworks.JobRetry
	once     bool // a handler runs at most once in the package's view
	handlers bool // the package has handlers: their judgement reads the program's jobs and take-overs
}

// roundFunc analyses the program for one round: with the zero Program and no links for the
// first, then with what the previous rounds learned. It returns every package's outcome.
type roundFunc func(p analyzer.Program, links link.Links) ([]*outcome, error)

// linkProgram runs the rounds of a program-wide link: the open interface calls of every
// package are resolved against the implementations anywhere in it, and the packages
// analysed again until the links settle. A handler the first round finds to run at most
// once (every insert of its job in its package's view sets MaxAttempts 1 or MaxRetry(0)) is
// judged again against every insert in the program, which takes a second round even with no
// links. It returns the last round's outcomes.
func linkProgram(analyse roundFunc, cone link.Cone, verbose bool) ([]*outcome, error) {
	outs, err := analyse(analyzer.Program{}, nil)
	if err != nil {
		return nil, err
	}
	jobs, once := programJobs(outs)
	var prev link.Links
	for round := 1; round < maxRounds; round++ {
		sums := summaries(outs)
		links := link.Link(sums, cone)
		taken := link.TakenOver(sums)
		settled := len(links) == 0 || (prev != nil && link.Equal(links, prev))
		if settled && !(round == 1 && (once || len(taken) > 0)) {
			break
		}
		if verbose {
			log.Printf("link round %d: %d open calls resolved across packages", round, len(links))
		}
		if outs, err = analyse(analyzer.Program{Jobs: jobs, TakenOver: taken}, links); err != nil {
			return nil, err
		}
		prev = links
	}
	return outs, nil
}

// recorder sees each package's analysis in a round end: it keeps the package's outcome
// (the checker keeps only its roots' results) and hands what the pass gave to after, on
// the pass's goroutine (the cache stores it there, in parallel with the other passes).
type recorder struct {
	pkgs  map[*types.Package]*packages.Package
	roots map[*types.Package]bool
	after func(passRecord, *outcome) // nil: nothing

	mu       sync.Mutex
	outcomes map[*types.Package]*outcome
}

// passRecord is what one package's analysis gave in a round.
type passRecord struct {
	pkg      *packages.Package
	res      *analyzer.Result
	diags    []analysis.Diagnostic
	facts    []analysis.ObjectFact // exported on the package's own objects
	pkgFacts []analysis.Fact
	restored bool // the package's stored facts were exported (reuse.go): nothing to store
}

// newRecorder records the analyses of pkgs (the roots) and of the packages they import.
func newRecorder(pkgs []*packages.Package, after func(passRecord, *outcome)) *recorder {
	r := &recorder{pkgs: map[*types.Package]*packages.Package{}, roots: map[*types.Package]bool{}, after: after, outcomes: map[*types.Package]*outcome{}}
	packages.Visit(pkgs, nil, func(p *packages.Package) { r.pkgs[p.Types] = p })
	for _, p := range pkgs {
		r.roots[p.Types] = true
	}
	return r
}

// wrap returns an analyzer that runs a and records each pass; restored tells the packages
// whose stored facts the pass exports.
func (r *recorder) wrap(a *analysis.Analyzer, restored map[*types.Package]*analyzer.Restored) *analysis.Analyzer {
	return wrapRun(a, func(pass *analysis.Pass) (any, error) {
		var diags []analysis.Diagnostic
		report := pass.Report
		pass.Report = func(d analysis.Diagnostic) { diags = append(diags, d); report(d) }
		res, err := a.Run(pass)
		pass.Report = report
		if res, ok := res.(*analyzer.Result); ok && err == nil {
			r.record(pass, res, diags, restored[pass.Pkg] != nil)
		}
		return res, err
	})
}

func (r *recorder) record(pass *analysis.Pass, res *analyzer.Result, diags []analysis.Diagnostic, restored bool) {
	pkg := r.pkgs[pass.Pkg]
	if pkg == nil || (r.after == nil && !r.roots[pass.Pkg]) {
		return // without a cache, only the roots' outcomes are read (the link's)
	}
	o := outcomeOf(pkg, res)
	r.mu.Lock()
	r.outcomes[pass.Pkg] = o
	r.mu.Unlock()
	if r.after == nil {
		return
	}
	pr := passRecord{pkg: pkg, res: res, diags: diags, restored: restored}
	for _, f := range pass.AllObjectFacts() {
		if f.Object.Pkg() == pass.Pkg {
			pr.facts = append(pr.facts, f)
		}
	}
	for _, f := range pass.AllPackageFacts() {
		if f.Package == pass.Pkg {
			pr.pkgFacts = append(pr.pkgFacts, f.Fact)
		}
	}
	r.after(pr, o)
}

// outcome is act's package's outcome (outcomeOf), nil when its analysis failed.
func (r *recorder) outcome(act *checker.Action) *outcome {
	if act.Err != nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.outcomes[act.Package.Types]
}

// outcomes reads the outcome of every root of a round's graph: the program's packages (the
// link sees the program, not its dependencies).
func outcomes(graph *checker.Graph, rec *recorder) []*outcome {
	var out []*outcome
	for _, act := range graph.Roots {
		if o := rec.outcome(act); o != nil {
			out = append(out, o)
		}
	}
	return out
}

func outcomeOf(pkg *packages.Package, res *analyzer.Result) *outcome {
	if res == nil {
		return nil
	}
	o := &outcome{id: pkg.ID, path: pkg.PkgPath, jobs: res.Jobs, handlers: len(res.Handlers) > 0}
	for _, h := range res.Handlers {
		o.once = o.once || h.AtMostOnce != ""
	}
	if res.Program != nil {
		o.summary = link.Canon(pkg.Fset, res.Program)
	}
	return o
}

// programJobs collects the retry settings of every analysed package (never nil), and
// reports whether some handler was found to run at most once.
func programJobs(outs []*outcome) ([]frameworks.JobRetry, bool) {
	jobs := []frameworks.JobRetry{}
	once := false
	for _, o := range outs {
		jobs = append(jobs, o.jobs...)
		once = once || o.once
	}
	return jobs, once
}

// summaries collects every analysed package's summary, dependencies included: an
// implementation may be in any of them.
func summaries(outs []*outcome) []link.Package {
	var out []link.Package
	for _, o := range outs {
		if o.summary != nil {
			out = append(out, link.Package{ID: o.id, Summary: o.summary})
		}
	}
	return out
}

// positions turns links into the callgraph.Links of the packages' files; a link of a
// package not among them (one this run does not analyse) is left out.
func positions(pkgs []*packages.Package, links link.Links) callgraph.Links {
	if len(links) == 0 {
		return nil
	}
	files := map[string]map[string]*token.File{} // by package ID and file name
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			if tf := p.Fset.File(f.Pos()); tf != nil {
				if files[p.ID] == nil {
					files[p.ID] = map[string]*token.File{}
				}
				files[p.ID][tf.Name()] = tf
			}
		}
	}
	out := callgraph.Links{}
	for at, l := range links {
		i := strings.LastIndexByte(at.Pos, ':')
		off, err := strconv.Atoi(at.Pos[i+1:])
		if f := files[at.Package][at.Pos[:max(i, 0)]]; err == nil && f != nil && off <= f.Size() {
			out[f.Pos(off)] = l
		}
	}
	return out
}

// importCone answers link.Cone from the packages' import graph.
func importCone(pkgs []*packages.Package) link.Cone {
	byID := map[string]*packages.Package{}
	packages.Visit(pkgs, nil, func(p *packages.Package) { byID[p.ID] = p })
	cones := map[string]map[string]bool{}
	return func(from, to string) bool {
		cone, ok := cones[from]
		if !ok {
			cone = map[string]bool{}
			seen := map[*packages.Package]bool{}
			var walk func(p *packages.Package)
			walk = func(p *packages.Package) {
				if p == nil || seen[p] {
					return
				}
				seen[p] = true
				cone[p.PkgPath] = true
				for _, imp := range p.Imports {
					walk(imp)
				}
			}
			walk(byID[from])
			cones[from] = cone
		}
		return cone[to]
	}
}

// analyzeProgram analyses pkgs with a and links the program (linkProgram). first wraps the
// analyzer of the first round (the progress display counts it); onRound, when set, gives
// each round what to do with each package's analysis (the cache stores it). It returns
// the last round's graph and outcomes (none for an analyzer that is not idemlint's).
func analyzeProgram(a *analysis.Analyzer, pkgs []*packages.Package, opts *checker.Options, first func(*analysis.Analyzer) *analysis.Analyzer,
	onRound func(analyzer.Program, link.Links) func(passRecord, *outcome), verbose bool) (*checker.Graph, []*outcome, error) {
	if a.ResultType != reflect.TypeFor[*analyzer.Result]() {
		// Not idemlint's analyzer (the benchmark's floor): it has no summaries to link.
		graph, err := checker.Analyze([]*analysis.Analyzer{first(a)}, pkgs, opts)
		return graph, nil, err
	}
	var all []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) { all = append(all, p) })
	var graph *checker.Graph
	wrap := first
	outs, err := linkProgram(func(p analyzer.Program, links link.Links) ([]*outcome, error) {
		p.Links = positions(all, links)
		pa, err := analyzer.ForProgram(a, p)
		if err != nil {
			return nil, err
		}
		var after func(passRecord, *outcome)
		if onRound != nil {
			after = onRound(p, links)
		}
		rec := newRecorder(pkgs, after)
		pa = rec.wrap(pa, nil)
		if wrap != nil {
			pa, wrap = wrap(pa), nil
		}
		if graph, err = checker.Analyze([]*analysis.Analyzer{pa}, pkgs, opts); err != nil {
			return nil, err
		}
		return outcomes(graph, rec), nil
	}, importCone(pkgs), verbose)
	return graph, outs, err
}

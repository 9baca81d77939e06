package rounds

import (
	"go/types"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
)

// Recorder sees each package's analysis in a round end: it keeps the package's outcome
// (the checker keeps only its roots' results) and hands what the pass gave to after, on
// the pass's goroutine (the result store stores it there, in parallel with the other passes).
type Recorder struct {
	pkgs  map[*types.Package]*packages.Package
	roots map[*types.Package]bool
	after func(PassRecord, *Outcome) // nil: nothing

	mu       sync.Mutex
	outcomes map[*types.Package]*Outcome
}

// PassRecord is what one package's analysis gave in a round.
type PassRecord struct {
	Pkg      *packages.Package
	Res      *analyzer.Result
	Diags    []analysis.Diagnostic
	Facts    []analysis.ObjectFact // exported on the package's own objects
	PkgFacts []analysis.Fact
	Restored bool // the package's stored facts were exported (internal/reuse): nothing to store
}

// NewRecorder records the analyses of pkgs (the roots) and of the packages they import.
func NewRecorder(pkgs []*packages.Package, after func(PassRecord, *Outcome)) *Recorder {
	r := &Recorder{pkgs: map[*types.Package]*packages.Package{}, roots: map[*types.Package]bool{}, after: after, outcomes: map[*types.Package]*Outcome{}}
	packages.Visit(pkgs, nil, func(p *packages.Package) { r.pkgs[p.Types] = p })
	for _, p := range pkgs {
		r.roots[p.Types] = true
	}
	return r
}

// Wrap returns an analyzer that runs a and records each pass; restored tells the packages
// whose stored facts the pass exports.
func (r *Recorder) Wrap(a *analysis.Analyzer, restored map[*types.Package]*analyzer.Restored) *analysis.Analyzer {
	return WrapRun(a, func(pass *analysis.Pass) (any, error) {
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

// Add records the analyses of p too, once it is type-checked (a driver that type-checks
// each package as its analysis comes up: internal/driver's dependencies).
func (r *Recorder) Add(p *packages.Package, root bool) {
	r.mu.Lock()
	r.pkgs[p.Types] = p
	if root {
		r.roots[p.Types] = true
	}
	r.mu.Unlock()
}

// Restore records p's analysis as restored from an earlier round (a dependency, analysed in
// the first round only): after sees it as it sees a pass that exported stored facts.
func (r *Recorder) Restore(p *packages.Package) {
	if r.after == nil {
		return
	}
	res := &analyzer.Result{}
	r.after(PassRecord{Pkg: p, Res: res, Restored: true}, outcomeOf(p, res))
}

// OutcomeOf is p's outcome (outcomeOf), nil when it has none (its analysis failed).
func (r *Recorder) OutcomeOf(p *packages.Package) *Outcome {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.outcomes[p.Types]
}

func (r *Recorder) record(pass *analysis.Pass, res *analyzer.Result, diags []analysis.Diagnostic, restored bool) {
	r.mu.Lock()
	pkg, root := r.pkgs[pass.Pkg], r.roots[pass.Pkg]
	r.mu.Unlock()
	if pkg == nil || (r.after == nil && !root) {
		return // without a cache, only the roots' outcomes are read (the link's)
	}
	o := outcomeOf(pkg, res)
	r.mu.Lock()
	r.outcomes[pass.Pkg] = o
	r.mu.Unlock()
	if r.after == nil {
		return
	}
	pr := PassRecord{Pkg: pkg, Res: res, Diags: diags, Restored: restored}
	for _, f := range pass.AllObjectFacts() {
		if f.Object.Pkg() == pass.Pkg {
			pr.Facts = append(pr.Facts, f)
		}
	}
	for _, f := range pass.AllPackageFacts() {
		if f.Package == pass.Pkg {
			pr.PkgFacts = append(pr.PkgFacts, f.Fact)
		}
	}
	r.after(pr, o)
}

// Outcome is act's package's outcome (outcomeOf), nil when its analysis failed.
func (r *Recorder) Outcome(act *checker.Action) *Outcome {
	if act.Err != nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.outcomes[act.Package.Types]
}

// Outcomes reads the outcome of every root of a round's graph: the program's packages (the
// link sees the program, not its dependencies).
func Outcomes(graph *checker.Graph, rec *Recorder) []*Outcome {
	var out []*Outcome
	for _, act := range graph.Roots {
		if o := rec.Outcome(act); o != nil {
			out = append(out, o)
		}
	}
	return out
}

// Instrument returns an analyzer that runs a and then calls done (the driver's progress
// line counts the passes).
func Instrument(a *analysis.Analyzer, done func()) *analysis.Analyzer {
	return WrapRun(a, func(pass *analysis.Pass) (any, error) {
		defer done()
		return a.Run(pass)
	})
}

// WrapRun returns a with run as its Run (which calls a.Run around what it adds). The
// checker offers no hook around a pass; wrapping Run is the one place that sees each
// package's analysis end.
func WrapRun(a *analysis.Analyzer, run func(*analysis.Pass) (any, error)) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:             a.Name,
		Doc:              a.Doc,
		URL:              a.URL,
		Requires:         a.Requires,
		ResultType:       a.ResultType,
		FactTypes:        a.FactTypes,
		RunDespiteErrors: a.RunDespiteErrors,
		Run:              run,
	}
}

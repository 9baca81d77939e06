// Package rounds runs the rounds of the program-wide link: the analyzer runs over the
// program, every package's outcome (its summary for the link, its retry settings) is
// recorded, the open calls are linked across packages (internal/link), and the program is
// analysed again with what the round learned until the links settle (Link). A round is the
// caller's: Analyze runs it on go/analysis/checker (the result store's reuse runs, and the
// driver where the checker's graph is read), the driver's own passes run it one package at
// a time (internal/driver). Both judge a program the same way, and which packages are
// dependencies, analysed in the first round only, is decided here (Dependencies); what a
// round does with each package's analysis besides (the store keeps it) is the caller's,
// through the Recorder.
package rounds

import (
	"go/token"
	"go/types"
	"log"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/routes"
	"github.com/chokaq/idemlint/internal/topics"
)

// MaxRounds bounds the analyses of a program-wide link: the first finds the open calls, a
// second resolves them, a third settles an implementation whose own open calls a link
// resolved. Loading and type-checking are done once; a round only runs the analyzer again,
// a small part of a run's cost.
const MaxRounds = 3

// RoundFunc analyses the program for one round: with the zero Program and no links for the
// first, then with what the previous rounds learned. It returns every package's outcome.
type RoundFunc func(p analyzer.Program, links link.Links) ([]*Outcome, error)

// Link runs the rounds of a program-wide link: the open interface calls of every
// package are resolved against the implementations anywhere in it, and the packages
// analysed again until the links settle. A handler the first round finds to run at most
// once (every insert of its job in its package's view sets MaxAttempts 1 or MaxRetry(0)) is
// judged again against every insert in the program, which takes a second round even with no
// links. A function another package registers as a handler, where its own package cannot
// know it is one, is handed to its own package (link.Registered) when reported says that
// package's findings are reported (by ID; nil: every package's), which also takes a second
// round, as do the channel types receive loops hand deliveries on over (link.Carriers),
// for the packages that read such a channel without importing the sender. It returns the
// last round's outcomes.
func Link(analyse RoundFunc, cone link.Cone, reported func(id string) bool, verbose bool) ([]*Outcome, error) {
	outs, err := analyse(analyzer.Program{}, nil)
	if err != nil {
		return nil, err
	}
	jobs, once := programJobs(outs)
	registered := link.Registered(Summaries(outs), reportedPaths(outs, reported))
	var prev link.Links
	var prevRoutes routes.Table
	var prevConsumers topics.Table
	var prevCarriers []callgraph.Carrier
	for round := 1; round < MaxRounds; round++ {
		sums := Summaries(outs)
		links := link.Link(sums, cone)
		taken := link.TakenOver(sums)
		served, linked := link.Routes(sums)
		if !linked {
			served = nil // no request the program sends is judged by its routes
		}
		consumers, consumed := link.Consumers(sums)
		if !consumed {
			consumers = nil // no message the program publishes is judged by its consumers
		}
		carriers := link.Carriers(sums)
		settled := (len(links) == 0 || (prev != nil && link.Equal(links, prev))) &&
			slices.Equal(served, prevRoutes) && slices.EqualFunc(consumers, prevConsumers, topics.Consumer.Equal) && slices.Equal(carriers, prevCarriers)
		if settled && !(round == 1 && (once || len(taken) > 0 || len(registered) > 0)) {
			break
		}
		if verbose {
			log.Printf("link round %d: %d open calls resolved across packages, %d routes served, %d consumers of topics published, %d channel types carrying deliveries", round, len(links), len(served), len(consumers), len(carriers))
		}
		p := analyzer.Program{Jobs: jobs, TakenOver: taken, Registered: registered, Routes: served, Consumers: consumers, Carriers: carriers}
		if outs, err = analyse(p, links); err != nil {
			return nil, err
		}
		prev, prevRoutes, prevConsumers, prevCarriers = links, served, consumers, carriers
	}
	return outs, nil
}

// reportedPaths answers link.Registered's question from the first round's outcomes: the
// packages (by path) whose analysis made a summary, and whose findings are reported.
func reportedPaths(outs []*Outcome, reported func(id string) bool) func(path string) bool {
	paths := map[string]bool{}
	for _, o := range outs {
		if o != nil && o.Summary != nil && (reported == nil || reported(o.ID)) {
			paths[o.Path] = true
		}
	}
	return func(path string) bool { return paths[path] }
}

// Positions turns links into the callgraph.Links of the packages' files; a link of a
// package not among them (one this run does not analyse) is left out.
func Positions(pkgs []*packages.Package, links link.Links) callgraph.Links {
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

// ImportCone answers link.Cone from the packages' import graph.
func ImportCone(pkgs []*packages.Package) link.Cone {
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

// OnRound gives a round of the program's analysis, with p and links, what to do with each
// package's analysis besides recording its outcome (the result store stores it there).
type OnRound func(p analyzer.Program, links link.Links) func(PassRecord, *Outcome)

// Deps are the dependencies a driver analysed before the program, once (see Dependency):
// every round exports the facts their analysis exported (Restored) instead of analysing
// them again, and fails those whose analysis failed with the same error.
type Deps struct {
	Restored map[*types.Package]*analyzer.Restored
	Failed   map[*types.Package]error
}

// Dependency reports whether p, a package the program imports but does not list (it is no
// root of the load), is analysed once, in the first round's view: a package of the standard
// library or of a versioned module (in the module cache, or vendored). The program-wide
// link resolves nothing in it (its summary is not linked), and its facts are taken not to
// depend on the program around it. Packages of the main module, of workspace modules and of
// modules replaced by a local directory are analysed again in every round.
func Dependency(p *packages.Package) bool {
	m := p.Module
	return m == nil || (m.Version != "" && (m.Replace == nil || m.Replace.Version != ""))
}

// Dependencies returns the IDs of the packages below roots that are analysed once
// (Dependency) and import only such packages: a package of the standard library compiled
// for a root's test (internal/sysinfo [bufio.test]) imports that root's test variant, and is
// analysed with the program.
func Dependencies(roots []*packages.Package) map[string]bool {
	isRoot := map[*packages.Package]bool{}
	for _, p := range roots {
		isRoot[p] = true
	}
	deps := map[string]bool{}
	packages.Visit(roots, nil, func(p *packages.Package) { // imports first
		if isRoot[p] || !Dependency(p) {
			return
		}
		for _, imp := range p.Imports {
			if !deps[imp.ID] {
				return
			}
		}
		deps[p.ID] = true
	})
	return deps
}

// Analyze analyses pkgs with a and links the program (Link). first wraps the
// analyzer of the first round (the progress display counts it); onRound, when set, gives
// each round what to do with each package's analysis (the result store stores it);
// reported says which packages' findings the run reports (by ID; nil: all); deps, when not
// nil, are the dependencies analysed already. It returns the last round's graph and
// outcomes (none for an analyzer that is not idemlint's).
func Analyze(a *analysis.Analyzer, pkgs []*packages.Package, opts *checker.Options, first func(*analysis.Analyzer) *analysis.Analyzer,
	onRound OnRound, reported func(id string) bool, verbose bool, deps *Deps) (*checker.Graph, []*Outcome, error) {
	if deps == nil {
		deps = &Deps{}
	}
	if a.ResultType != reflect.TypeFor[*analyzer.Result]() {
		// Not idemlint's analyzer (the benchmark's floor): it has no summaries to link.
		graph, err := checker.Analyze([]*analysis.Analyzer{first(a)}, pkgs, opts)
		return graph, nil, err
	}
	var all []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) { all = append(all, p) })
	var graph *checker.Graph
	wrap := first
	outs, err := Link(func(p analyzer.Program, links link.Links) ([]*Outcome, error) {
		p.Links = Positions(all, links)
		p.Restored = deps.Restored
		pa, err := analyzer.ForProgram(a, p)
		if err != nil {
			return nil, err
		}
		var after func(PassRecord, *Outcome)
		if onRound != nil {
			after = onRound(p, links)
		}
		rec := NewRecorder(pkgs, after)
		pa = rec.Wrap(failing(pa, deps.Failed), deps.Restored)
		if wrap != nil {
			pa, wrap = wrap(pa), nil
		}
		graph = nil // the previous round's: its actions hold their results and facts, let them go
		if graph, err = checker.Analyze([]*analysis.Analyzer{pa}, pkgs, opts); err != nil {
			return nil, err
		}
		return Outcomes(graph, rec), nil
	}, ImportCone(pkgs), reported, verbose)
	return graph, outs, err
}

// failing returns a whose analysis of the packages in failed fails with their error.
func failing(a *analysis.Analyzer, failed map[*types.Package]error) *analysis.Analyzer {
	if len(failed) == 0 {
		return a
	}
	return WrapRun(a, func(pass *analysis.Pass) (any, error) {
		if err := failed[pass.Pkg]; err != nil {
			return nil, err
		}
		return a.Run(pass)
	})
}

package driver

import (
	"log"
	"reflect"

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

// analyzeProgram analyses pkgs with a and links the program: the open interface calls of
// every package are resolved against the implementations anywhere in it, and the packages
// analysed again until the links settle. A handler the first round finds to run at most
// once (every insert of its job in its package's view sets MaxAttempts 1 or MaxRetry(0)) is
// judged again against every insert in the program, which takes a second round even with no
// links. first wraps the analyzer of the first round (the progress display counts it); the
// graph returned is the last round's.
func analyzeProgram(a *analysis.Analyzer, pkgs []*packages.Package, opts *checker.Options, first func(*analysis.Analyzer) *analysis.Analyzer, verbose bool) (*checker.Graph, error) {
	if a.ResultType != reflect.TypeFor[*analyzer.Result]() {
		// Not idemlint's analyzer (the benchmark's floor): it has no summaries to link.
		return checker.Analyze([]*analysis.Analyzer{first(a)}, pkgs, opts)
	}
	pa, err := analyzer.ForProgram(a, analyzer.Program{})
	if err != nil {
		return nil, err
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{first(pa)}, pkgs, opts)
	if err != nil {
		return nil, err
	}
	jobs, once := programJobs(graph)
	var prev callgraph.Links
	for round := 1; round < maxRounds; round++ {
		sums := summaries(graph)
		links := link.Link(sums)
		taken := link.TakenOver(sums)
		settled := len(links) == 0 || (prev != nil && link.Equal(links, prev))
		if settled && !(round == 1 && (once || len(taken) > 0)) {
			break
		}
		if verbose {
			log.Printf("link round %d: %d open calls resolved across packages", round, len(links))
		}
		if pa, err = analyzer.ForProgram(a, analyzer.Program{Links: links, Jobs: jobs, TakenOver: taken}); err != nil {
			return nil, err
		}
		if graph, err = checker.Analyze([]*analysis.Analyzer{pa}, pkgs, opts); err != nil {
			return nil, err
		}
		prev = links
	}
	return graph, nil
}

// programJobs collects the retry settings of every analysed package (never nil), and
// reports whether some handler was found to run at most once.
func programJobs(graph *checker.Graph) ([]frameworks.JobRetry, bool) {
	jobs := []frameworks.JobRetry{}
	once := false
	for act := range graph.All() {
		res, _ := act.Result.(*analyzer.Result)
		if act.Err != nil || res == nil {
			continue
		}
		jobs = append(jobs, res.Jobs...)
		for _, h := range res.Handlers {
			once = once || h.AtMostOnce != ""
		}
	}
	return jobs, once
}

// summaries collects every analysed package's summary, dependencies included: an
// implementation may be in any of them.
func summaries(graph *checker.Graph) []link.Package {
	var out []link.Package
	for act := range graph.All() {
		res, _ := act.Result.(*analyzer.Result)
		if act.Err != nil || res == nil || res.Program == nil {
			continue
		}
		out = append(out, link.Package{Types: act.Package.Types, Summary: res.Program})
	}
	return out
}

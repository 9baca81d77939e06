package driver

import (
	"io"
	"log"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/pkgout"
	"github.com/chokaq/idemlint/internal/result"
	"github.com/chokaq/idemlint/internal/rounds"
)

// analyse analyses loaded packages: it returns the run's result and, where the program is
// held whole for the x/tools checker (a load that is not listed, or Config.Graph), the
// checker's graph of the last round. clock ends the dependencies' phase of a listed load.
// onRound, when not nil, stores what each package gave for later runs (the result store's
// reuse.Session.Rounds).
func analyse(cfg Config, l *Loaded, start time.Time, clock *phaseClock, progress *progress, onRound rounds.OnRound) (*checker.Graph, *result.Run, error) {
	pkgs := l.pkgs
	var deps *rounds.Deps
	if l.listed {
		s, err := analyseDeps(cfg, l, clock, progress, onRound)
		if err != nil {
			return nil, nil, err
		}
		if !cfg.Graph {
			run, err := s.rounds(cfg, l.named, start)
			return nil, run, err
		}
		// The caller reads the checker's graph: the program's packages are type-checked
		// whole and analysed by the checker, with the dependencies' facts restored.
		inOrder(s.program, s.workers, s.tc.check)
		if err := newerGo(s.roots); err != nil {
			return nil, nil, err
		}
		pkgs, onRound = s.roots, s.onRound
		deps = &rounds.Deps{Restored: s.deps.restored(), Failed: s.deps.failed}
	}
	root := sourceRoot()
	run := &result.Run{Tool: Tool(), Root: root, Disabled: cfg.Disabled}
	all := loadErrors(run, pkgs)

	var factLog io.Writer
	if dbg(cfg.Debug, 'f') {
		factLog = os.Stderr
	}
	progress.total = len(all)
	count := func(a *analysis.Analyzer) *analysis.Analyzer {
		if deps == nil {
			return rounds.Instrument(a, func() { progress.step(progress.done.Add(1)) })
		}
		return rounds.WrapRun(a, func(pass *analysis.Pass) (any, error) {
			if deps.Restored[pass.Pkg] == nil {
				defer progress.step(progress.done.Add(1)) // the dependencies were counted as they were analysed
			}
			return a.Run(pass)
		})
	}
	opts := &checker.Options{
		Sequential:  dbg(cfg.Debug, 'p'),
		SanityCheck: dbg(cfg.Debug, 's'),
		FactLog:     factLog,
	}
	var reported func(id string) bool
	if l.named != nil {
		reported = func(id string) bool { return l.named[id] }
	}
	graph, outs, err := rounds.Analyze(cfg.Analyzer, pkgs, opts, count, onRound, reported, dbg(cfg.Debug, 'v'), deps)
	progress.Clear()
	if err != nil {
		return nil, nil, err
	}

	n := 0
	for act := range graph.All() {
		n++
		if act.Err != nil {
			run.Errors = append(run.Errors, result.Error{Package: act.Package.ID, Message: act.Err.Error()})
		}
	}
	run.Packages = n
	if l.named != nil {
		// The program was the main module; what is reported, fixed or printed is the
		// patterns' packages.
		graph.Roots = slices.DeleteFunc(graph.Roots, func(act *checker.Action) bool { return !l.named[act.Package.ID] })
	}
	conv := pkgout.NewJoiner(run, root, all, pkgout.NewImplementations(rounds.Summaries(outs)))
	for _, act := range graph.Roots {
		if act.Err != nil {
			continue
		}
		res, _ := act.Result.(*analyzer.Result)
		conv.Action(act.Package, act.Diagnostics, res)
	}
	conv.Finish()
	run.Duration = time.Since(start)
	return graph, run, nil
}

// loadErrors adds the errors in the packages themselves (syntax, types, missing modules) to
// run, as go/packages.PrintErrors would, once per package, but for the type errors that
// follow from an unresolved import or a syntax error (causes). It returns every package, in
// the order visited (imports first).
func loadErrors(run *result.Run, pkgs []*packages.Package) []*packages.Package {
	var all []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		all = append(all, p)
		for _, e := range causes(p.Errors) {
			source := e.Kind == packages.ParseError || e.Kind == packages.TypeError
			run.Errors = append(run.Errors, result.Error{Package: p.ID, Message: e.Error(), Load: true, Source: source})
		}
		if p.Module != nil && p.Module.Error != nil {
			run.Errors = append(run.Errors, result.Error{Package: p.ID, Message: p.Module.Error.Err, Load: true})
		}
	})
	return all
}

// causes returns a package's errors, but only their causes: the go command's errors and
// the syntax errors when there are any, else the imports that could not be imported when
// there are any. The other type errors follow from those (a module the proxy refused makes
// "undefined: lexorank" at every use of its package; a file that does not parse, a variable
// declared in the broken statement or a "missing return" with no position), and the go
// command does not type-check such a package either. Of the syntax errors, the first of each
// line is kept, as go/scanner's RemoveMultiples and the go command do: the parser's recovery
// adds more on the same line.
func causes(errs []packages.Error) []packages.Error {
	first := slices.ContainsFunc(errs, func(e packages.Error) bool { return e.Kind == packages.ParseError || e.Kind == packages.ListError })
	imports := slices.ContainsFunc(errs, couldNotImport)
	if !first && !imports {
		return errs
	}
	var out []packages.Error
	lines := map[string]bool{}
	for _, e := range errs {
		switch {
		case e.Kind == packages.TypeError && (first || !couldNotImport(e)):
			continue
		case e.Kind == packages.ParseError:
			line := e.Pos
			if i := strings.LastIndexByte(line, ':'); i > 0 && strings.Count(line, ":") >= 2 {
				line = line[:i] // "file:line:col" to "file:line"
			}
			if lines[line] {
				continue
			}
			lines[line] = true
		}
		out = append(out, e)
	}
	return out
}

// couldNotImport reports whether e is the type checker's error for an import whose package
// did not load.
func couldNotImport(e packages.Error) bool {
	return e.Kind == packages.TypeError && strings.HasPrefix(e.Msg, "could not import ")
}

// streamed is a listed program whose dependencies are analysed (analyseDeps): what its
// own packages' rounds need.
type streamed struct {
	roots, all, program []*packages.Package // the copy's roots, every package and the program's own (imports first)
	deps                *depResult
	tc                  *typeChecker
	workers             int
	factLog             bool
	onRound             rounds.OnRound // its first round's hook made once, for the dependencies and the program alike
	progress            *progress
}

// analyseDeps type-checks a copy of the listed program (copyGraph) and analyses its
// dependencies (rounds.Dependencies), each as soon as its imports are and then let go of
// (stream.go). onRound's first round is the dependencies' and the program's first round
// alike (the store signs a package from its imports' signatures in that round): the
// returned state's onRound hands it out once more.
func analyseDeps(cfg Config, l *Loaded, clock *phaseClock, progress *progress, onRound rounds.OnRound) (*streamed, error) {
	roots, all := copyGraph(l.pkgs)
	isDep := rounds.Dependencies(roots)
	var deps, program []*packages.Package
	for _, p := range all {
		if isDep[p.ID] {
			deps = append(deps, p)
		} else {
			program = append(program, p)
		}
	}
	var trim *trimmer
	if !cfg.fullSyntax {
		trim = newTrimmer(cfg.Analyzer)
	}
	tc := newTypeChecker(trim)
	workers := runtime.GOMAXPROCS(0)
	if dbg(cfg.Debug, 'p') {
		workers = 1
	}

	pa, err := analyzer.ForProgram(cfg.Analyzer, analyzer.Program{})
	if err != nil {
		return nil, err
	}
	var first func(rounds.PassRecord, *rounds.Outcome)
	if onRound != nil {
		first = onRound(analyzer.Program{}, nil)
		next, made := onRound, false
		onRound = func(p analyzer.Program, links link.Links) func(rounds.PassRecord, *rounds.Outcome) {
			if !made {
				made = true
				return first
			}
			return next(p, links)
		}
	}
	var rec *rounds.Recorder
	if first != nil {
		rec = rounds.NewRecorder(nil, first)
		pa = rec.Wrap(pa, nil)
	}
	progress.total = len(all)
	pa = rounds.Instrument(pa, func() { progress.step(progress.done.Add(1)) })
	check := tc.check
	if rec != nil {
		check = func(p *packages.Package) { tc.check(p); rec.Add(p, false) }
	}
	d := runDeps(pa, deps, check, workers, dbg(cfg.Debug, 'f'))
	clock.end("dependencies")
	if trim != nil && dbg(cfg.Debug, 'v') {
		log.Printf("parsed %d files without function bodies (packages the analysis skips)", len(trim.trimmed))
	}
	return &streamed{roots: roots, all: all, program: program, deps: d, tc: tc, workers: workers,
		factLog: dbg(cfg.Debug, 'f'), onRound: onRound, progress: progress}, nil
}

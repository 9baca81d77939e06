// Package driver loads packages with go/packages, runs the idemlint analyzer on them with
// go/analysis/checker, and turns what the analyzer reported into a result.Run: findings
// matched to their structured form and fingerprinted, handlers with their effects and
// directives, load and analysis errors.
//
// It is the part of the command that knows about go/packages and go/token; the output
// formats, the baseline and the inventory work on the plain result it returns.
package driver

import (
	"go/token"
	"io"
	"log"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/result"
)

// Config says what to load and how.
type Config struct {
	Analyzer *analysis.Analyzer // made by package analyzer (its Result type is needed)
	Patterns []string           // package patterns, as for go build
	Tests    bool               // load test files too (the -test flag)
	// PatternsOnly narrows the program to the packages the patterns name (and what they
	// import). By default the program is the whole main module of those packages, so that
	// the wiring in cmd/ counts when the patterns name ./worker/...; findings are reported
	// for the patterns' packages either way.
	PatternsOnly bool
	BuildFlags   []string // passed to the go command (-tags=...)
	Disabled     []string // the analyzer's -disable kinds, to mark effects not reported
	// Progress, when set, receives a line that is rewritten as packages finish ("\r"): it
	// should be a terminal.
	Progress io.Writer
	// Debug holds the checker's debug letters: f (log facts), p (sequential), s (sanity
	// checks of facts), v (verbose log); t is handled by the caller from Graph.
	Debug string

	// Cache, when set, answers a run whose inputs are all unchanged from a stored result,
	// without parsing or type-checking (see runCached). Output.Graph is nil then: a caller
	// that needs the checker's graph (-fix, the legacy -json tree, -debug) leaves it unset.
	Cache *cache.Cache

	// fullSyntax parses every package in full, as go/packages does by default, even those
	// the analysis skips whole (for tests that prove the trimming changes nothing).
	fullSyntax bool
}

// Output is a finished run: the checker's graph (for -fix and the legacy -json tree) and
// the result the formats read (Graph is nil when the result came from the cache).
type Output struct {
	Graph *checker.Graph
	Run   *result.Run

	metadataCached bool // the program's metadata was the cache's: no go list ran (metadata.go)
}

// Run loads and analyses the packages. An error means nothing was analysed (a bad
// pattern, no go.mod, a configuration file that does not load, a module newer than this
// build of idemlint): exit status 1, or 2 for a *ConfigError. Packages that fail
// individually are in Run.Errors.
func Run(cfg Config) (*Output, error) {
	start := time.Now()
	progress := newProgress(cfg.Progress)
	if cfg.Cache != nil {
		return runCached(cfg, start, progress)
	}
	pkgs, err := Load(cfg, progress)
	if err != nil {
		return nil, err
	}
	return analyse(cfg, pkgs, start, progress, nil)
}

// Loaded is the outcome of Load, to be analysed by Analyze, possibly more than once (the
// command's tests load a module once and analyse it with several settings).
type Loaded struct {
	pkgs []*packages.Package
	// named holds the IDs of the packages the patterns name, when the program loaded is
	// wider (the main module); nil when it is exactly the patterns' packages.
	named map[string]bool
}

// Load loads the packages cfg names and checks what must hold before analysis: every
// pattern names packages, the module does not need a newer Go than this build, and every
// .idemlint.yml that applies to a package loads.
func Load(cfg Config, p *progress) (*Loaded, error) {
	if p == nil {
		p = newProgress(cfg.Progress)
	}
	if dbg(cfg.Debug, 'v') {
		log.Printf("load %s", cfg.Patterns)
	}
	p.phase("loading " + strings.Join(cfg.Patterns, " "))
	pkgs, named, err := load(cfg)
	p.clear()
	if err != nil {
		return nil, err
	}
	return &Loaded{pkgs: pkgs, named: named}, nil
}

// Analyze runs the analyzer of cfg on packages loaded by Load.
func Analyze(cfg Config, l *Loaded) (*Output, error) {
	return analyse(cfg, l, time.Now(), newProgress(cfg.Progress), nil)
}

// analyse analyses loaded packages; st, when not nil, stores what each package gave for
// later runs (reuse.go).
func analyse(cfg Config, l *Loaded, start time.Time, progress *progress, st *pkgStore) (*Output, error) {
	pkgs := l.pkgs
	root := sourceRoot()
	run := &result.Run{Tool: Tool(), Root: root, Disabled: cfg.Disabled}
	conv := &converter{run: run, root: root}

	// Errors in the packages themselves (syntax, types, missing modules): reported as
	// go/packages.PrintErrors would, once per package.
	var all []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		all = append(all, p)
		for _, e := range p.Errors {
			run.Errors = append(run.Errors, result.Error{Package: p.ID, Message: e.Error(), Load: true})
		}
		if p.Module != nil && p.Module.Error != nil {
			run.Errors = append(run.Errors, result.Error{Package: p.ID, Message: p.Module.Error.Err, Load: true})
		}
	})
	conv.index(all)

	var factLog io.Writer
	if dbg(cfg.Debug, 'f') {
		factLog = os.Stderr
	}
	var done atomic.Int64
	progress.total = len(all)
	count := func(a *analysis.Analyzer) *analysis.Analyzer {
		return instrument(a, func() { progress.step(done.Add(1)) })
	}
	opts := &checker.Options{
		Sequential:  dbg(cfg.Debug, 'p'),
		SanityCheck: dbg(cfg.Debug, 's'),
		FactLog:     factLog,
	}
	var onRound func(analyzer.Program, link.Links) func(passRecord, *outcome)
	if st != nil {
		st.exporting(pkgs)
		onRound = func(p analyzer.Program, links link.Links) func(passRecord, *outcome) {
			return st.hook(p, links, newRoundSigs())
		}
	}
	graph, outs, err := analyzeProgram(cfg.Analyzer, pkgs, opts, count, onRound, dbg(cfg.Debug, 'v'))
	progress.clear()
	if err != nil {
		return nil, err
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
	conv.impls = newImplementations(outs)
	for _, act := range graph.Roots {
		if act.Err != nil {
			continue
		}
		res, _ := act.Result.(*analyzer.Result)
		conv.action(act.Package, act.Diagnostics, res)
	}
	conv.finish()
	run.Duration = time.Since(start)
	return &Output{Graph: graph, Run: run}, nil
}

// instrument returns an analyzer that runs a and then calls done. The checker offers no
// progress hook; wrapping Run is the one place that sees each package finish.
func instrument(a *analysis.Analyzer, done func()) *analysis.Analyzer {
	return wrapRun(a, func(pass *analysis.Pass) (any, error) {
		defer done()
		return a.Run(pass)
	})
}

// wrapRun returns a with run as its Run (which calls a.Run around what it adds).
func wrapRun(a *analysis.Analyzer, run func(*analysis.Pass) (any, error)) *analysis.Analyzer {
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

// Tool describes this build of idemlint.
func Tool() result.Tool {
	return result.Tool{Name: "idemlint", Version: Version(), URI: "https://github.com/chokaq/idemlint"}
}

// Version is this build's version: the module version when installed by version (go
// install ...@v0.1.0), the one the go command stamps from the repository when built in a
// clone (v0.1.1-0.20261201102500-b397f84abcde+dirty), else the VCS revision when it is
// recorded, else "(devel)".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return version(bi)
}

func version(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return "(devel)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		rev += "+dirty"
	}
	return "(devel) " + rev
}

// sourceRoot is the directory machine-readable paths are relative to: the enclosing
// repository's top (the nearest directory with a .git entry), because code scanning and
// annotations resolve paths against the repository, or else the working directory.
func sourceRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd
		}
		dir = parent
	}
}

func dbg(flags string, b byte) bool { return strings.IndexByte(flags, b) >= 0 }

// position converts a token position, making File relative to root when it is inside.
func position(fset *token.FileSet, pos token.Pos, root string) result.Position {
	if !pos.IsValid() {
		return result.Position{}
	}
	return fromToken(fset.Position(pos), root)
}

func fromToken(p token.Position, root string) result.Position {
	return result.Position{Path: p.Filename, File: relative(p.Filename, root), Line: p.Line, Column: p.Column}
}

func relative(file, root string) string {
	if file == "" {
		return ""
	}
	if root != "" {
		if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != ".." {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(file)
}

// Files lists the Go files of the packages named by the patterns (not of their
// dependencies), to tell whether a loaded set is still current.
func (l *Loaded) Files() []string {
	var out []string
	for _, p := range l.pkgs {
		out = append(out, p.CompiledGoFiles...)
	}
	return out
}

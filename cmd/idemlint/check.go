package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/baseline"
	"github.com/chokaq/idemlint/internal/driver"
	"github.com/chokaq/idemlint/internal/fix"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/modelcheck"
	"github.com/chokaq/idemlint/internal/output/github"
	"github.com/chokaq/idemlint/internal/output/jsonout"
	"github.com/chokaq/idemlint/internal/output/sarif"
	"github.com/chokaq/idemlint/internal/output/text"
	"github.com/chokaq/idemlint/internal/result"
)

// checkFlags are the flags of the default subcommand.
type checkFlags struct {
	common
	modelsCheck   string
	format        string
	output        string
	writeBaseline bool
	legacyJSON    bool
	context       int
	fix, diff     bool
	strictLoad    bool
	version       bool
	cpuprofile    string
	memprofile    string
	phases        bool // -v
	trace         string
}

var formats = []string{"text", "json", "sarif", "github"}

// checkGroups order the check's flags in its usage text.
var checkGroups = []group{
	{"Output", []string{"format", "o", "q", "c"}},
	{"Baseline", []string{"baseline", "write-baseline"}},
	{"What to check (override .idemlint.yml)", []string{"disable", "enable", "decisions", "shared-sinks", "models", "builtin", "schema", "test", "tags", "program"}},
	{"Fixes", []string{"fix", "diff"}},
	{"Other", []string{"cache", "strict-load", "models-check", "json", "v", "version"}},
}

func newCheckFlags() (*flag.FlagSet, *checkFlags) {
	f := &checkFlags{}
	fs := flag.NewFlagSet("idemlint", flag.ContinueOnError)
	f.register(fs)
	fs.StringVar(&f.format, "format", "text", "output format: "+strings.Join(formats, ", "))
	fs.StringVar(&f.output, "o", "", "write the output to this file instead of stdout")
	fs.StringVar(&f.baseline, "baseline", "", "report only findings not recorded in this baseline file; list its stale entries")
	fs.BoolVar(&f.writeBaseline, "write-baseline", false, "record the current findings in the -baseline file and exit 0")
	fs.BoolVar(&f.legacyJSON, "json", false, "emit the go/analysis JSON tree (as go vet -json); exit status 0 with findings")
	fs.IntVar(&f.context, "c", -1, "display offending line with this many lines of context (text format)")
	fs.BoolVar(&f.fix, "fix", false, "apply all suggested fixes")
	fs.BoolVar(&f.diff, "diff", false, "preview -fix: print the fixes as a unified diff and change no file")
	fs.StringVar(&f.cpuprofile, "cpuprofile", "", "write CPU profile to this file")
	fs.StringVar(&f.memprofile, "memprofile", "", "write memory profile to this file")
	fs.StringVar(&f.trace, "trace", "", "write trace log to this file")
	fs.StringVar(&f.modelsCheck, "models-check", "", "check this model file: report which names it references exist in the packages' import graph, then exit")
	fs.BoolVar(&f.strictLoad, "strict-load", false, "exit 1 when a package could not be loaded or analysed, even with findings (default: findings exit 3)")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	// Shims for legacy vet flags, accepted by every go/analysis driver.
	fs.Bool("source", false, "no effect (deprecated)")
	fs.BoolVar(&f.phases, "v", false, "print the wall time and peak memory of each phase of the run (load, dependencies, analyse, report) on stderr")
	fs.Bool("all", false, "no effect (deprecated)")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, `idemlint: %s.

Usage:
  idemlint [flags] [packages]          check packages, e.g. ./...
  idemlint report [flags] [packages]   write the handler inventory (idemlint help report)
  idemlint cache clean|dir             empty the result cache, or print where it is
  idemlint version                     print the version
  go vet -vettool=$(command -v idemlint) [packages]

Findings go to stdout; progress and the summary line to stderr. Settings come from
.idemlint.yml (found from the working directory up to the module root: disable, enable,
decisions, builtin, models, and your own models); flags override it.

Exit status: 0 no findings (no new ones with -baseline), 3 findings (also when some
packages could not be loaded: -strict-load makes that 1), 1 packages could not be loaded
or analysed and nothing was found, 2 bad usage or configuration. With the legacy -json
flag, findings exit 0.
`, analyzer.Analyzer.Doc)
		printFlags(w, fs, checkGroups)
		fmt.Fprint(w, `
Documentation: https://github.com/chokaq/idemlint (docs/ci.md: formats, baselines,
CI; docs/checks.md: each check; docs/models.md: .idemlint.yml).
`)
	}
	return fs, f
}

// checkCommand runs the default subcommand and returns the exit status.
func checkCommand(args []string, stdout, stderr io.Writer) int {
	start := time.Now()
	fs, f := newCheckFlags()
	if code, done := parse(fs, args, stdout, stderr); done {
		return code
	}
	if f.version {
		printVersion(stdout)
		return exitClean
	}
	if f.modelsCheck != "" {
		return runModelsCheck(f.modelsCheck, fs.Args(), stdout, stderr)
	}
	cfg, base, err := f.prepare(fs, stderr)
	if err != nil {
		return fail(stderr, err)
	}
	if f.fix || f.legacyJSON {
		cfg.Cache = nil // both read the checker's graph, which the cache does not keep
	}
	cfg.Graph = f.fix || f.legacyJSON || strings.Contains(f.debug, "t")
	stop, err := f.profile()
	if err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
		return exitUsage
	}
	defer stop()

	out, err := analyseRun(cfg)
	if err != nil {
		return fail(stderr, err)
	}
	run := out.Run
	run.Duration = time.Since(start)
	wd, _ := os.Getwd()
	code := exitClean
	loadFailed := printLoadErrors(stderr, run.Errors, wd) > 0
	if loadFailed {
		code = exitError
	}
	if strings.Contains(f.debug, "t") {
		printTiming(stderr, out.Graph)
	}

	switch {
	case f.fix && f.diff:
		// A preview: the diff is the output; the status is the run's, as without -diff.
		fixCode, _ := applyFixes(out.Graph, true, wd, stdout, stderr)
		return f.reportFindings(run, nil, max(code, fixCode), wd, io.Discard, stderr)
	case f.fix:
		fixCode, applied := applyFixes(out.Graph, false, wd, stdout, stderr)
		if code = max(code, fixCode); code != exitClean {
			return code
		}
		if applied == 0 {
			return f.reportFindings(run, nil, code, wd, stdout, stderr)
		}
		// What the fixes leave: a second run over the fixed files, reported as any run, so
		// that -fix never exits 0 while findings remain.
		again, err := analyseRun(cfg)
		if err != nil {
			return fail(stderr, err)
		}
		again.Run.Duration = time.Since(start)
		if printLoadErrors(stderr, again.Run.Errors, wd) > 0 {
			code = exitError
		}
		return f.reportFindings(again.Run, nil, code, wd, stdout, stderr)
	case f.legacyJSON:
		return max(code, f.write(stdout, stderr, func(w io.Writer) error { return out.Graph.PrintJSON(w) }))
	case f.writeBaseline:
		return f.recordBaseline(run, code, stderr)
	}
	reportStart := time.Now()
	status := f.loadStatus(f.reportFindings(run, base, exitClean, wd, stdout, stderr), loadFailed)
	if f.phases {
		phases := append(out.Phases, driver.Phase{Name: "report", Wall: time.Since(reportStart), PeakRSS: driver.PeakRSS()})
		fmt.Fprintf(stderr, "idemlint: phases: %s\n", driver.FormatPhases(phases))
		if len(f.schemaFiles) > 0 {
			fmt.Fprintf(stderr, "idemlint: schema: %s\n", schemaSummary(f.schemaFiles))
		}
	}
	return status
}

// loadStatus is a run's status when some packages could not be loaded or analysed (the
// errors are printed, and counted in the summary line): the findings of what did load exit
// 3, unless -strict-load; a run with no findings exits 1.
func (f *checkFlags) loadStatus(code int, loadFailed bool) int {
	if loadFailed && (code == exitClean || (code == exitFindings && f.strictLoad)) {
		return exitError
	}
	return code
}

// runModelsCheck runs -models-check: 0 when every name in view resolves, 1 when a name is
// missing or the packages do not load.
func runModelsCheck(file string, patterns []string, stdout, stderr io.Writer) int {
	// The same problem as a bad -models file, the same status and prefix.
	if _, err := model.LoadFile(file); err != nil {
		return fail(stderr, usagef("-models-check: %v", err))
	}
	status, err := modelcheck.Run(stdout, file, "", patterns)
	if err != nil {
		fmt.Fprintf(stderr, "idemlint: -models-check: %v\n", err)
	}
	return status
}

// prepare checks the flags and reads what the run needs before anything is loaded, so
// that bad usage fails fast: the driver's configuration, and the -baseline file unless
// -write-baseline is about to replace it.
func (f *checkFlags) prepare(fs *flag.FlagSet, stderr io.Writer) (driver.Config, *baseline.File, error) {
	if err := f.validate(fs.Args()); err != nil {
		return driver.Config{}, nil, usageError{err}
	}
	f.fix = f.fix || f.diff // -diff alone is -fix's preview
	if err := checkOutput(f.output); err != nil {
		return driver.Config{}, nil, err
	}
	cfg, err := f.config(fs, fs.Args(), stderr)
	if err != nil {
		return driver.Config{}, nil, err
	}
	var base *baseline.File
	if f.writeBaseline {
		if err := baseline.Replaceable(f.baseline); err != nil {
			return driver.Config{}, nil, usagef("-write-baseline: %v", err)
		}
	}
	if f.baseline != "" && !f.writeBaseline {
		if base, err = baseline.Read(f.baseline); err != nil {
			return driver.Config{}, nil, usagef("-baseline %s: %v (create it with -write-baseline)", f.baseline, err)
		}
	}
	return cfg, base, nil
}

// recordBaseline writes the findings to the -baseline file. It refuses after package
// errors (code is not clean): the findings in the packages that failed would be missing
// from it, and reported as new once those packages load.
func (f *checkFlags) recordBaseline(run *result.Run, code int, stderr io.Writer) int {
	if code != exitClean || len(run.Errors) > 0 { // tests that did not load hold findings too
		fmt.Fprintf(stderr, "idemlint: not writing %s: some packages failed, so the findings are incomplete\n", f.baseline)
		return max(code, exitError)
	}
	b, err := baseline.Write(f.baseline, run.Findings)
	if err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
		return exitError
	}
	if !f.quiet {
		fmt.Fprintf(stderr, "idemlint: recorded %d findings in %d entries in %s\n", len(run.Findings), len(b.Findings), f.baseline)
	}
	return code
}

// reportFindings writes the findings not in the baseline (base, if any) in the -format,
// after a note on stderr for each stale baseline entry, and the summary line. It returns
// code raised to exitFindings when there are findings and nothing else went wrong.
func (f *checkFlags) reportFindings(run *result.Run, base *baseline.File, code int, wd string, stdout, stderr io.Writer) int {
	var stale []baseline.Stale
	if base != nil {
		stale = base.Apply(run.Findings)
	}
	findings := run.New()
	notes := staleNotes(f.baseline, stale)
	for _, n := range notes {
		fmt.Fprintf(stderr, "idemlint: %s\n", n)
	}
	code = max(code, f.write(stdout, stderr, f.formatter(run, findings, base, stale, notes, wd)))
	if len(findings) > 0 && code == exitClean {
		code = exitFindings
	}
	if !f.quiet {
		fmt.Fprintln(stderr, closingLine(run, findings, wd))
	}
	return code
}

// staleNotes are the notes for the baseline entries no longer found, so that the
// baseline shrinks as findings are fixed rather than hiding their return.
func staleNotes(file string, stale []baseline.Stale) []string {
	var notes []string
	for _, s := range stale {
		notes = append(notes, fmt.Sprintf("baseline %s: no longer found, remove it (or rerun with -write-baseline): %s", file, s))
	}
	return notes
}

// formatter returns what writes the findings in the -format. The JSON and GitHub formats
// carry the baseline's stale entries and notes too, for the tools that read them.
func (f *checkFlags) formatter(run *result.Run, findings []*result.Finding, base *baseline.File, stale []baseline.Stale, notes []string, wd string) func(io.Writer) error {
	switch f.format {
	case "text":
		return func(w io.Writer) error { return text.Write(w, findings, f.context, wd) }
	case "json":
		var jb *jsonout.Baseline
		if base != nil {
			jb = jsonBaseline(f.baseline, len(run.Findings)-len(findings), stale)
		}
		return func(w io.Writer) error { return jsonout.Write(w, jsonout.Build(run, findings, jb)) }
	case "sarif":
		return func(w io.Writer) error { return sarif.Write(w, sarif.Build(run, findings)) }
	case "github":
		return func(w io.Writer) error { return github.Write(w, findings, run.Errors, notes) }
	}
	return nil
}

// jsonBaseline is the JSON output's account of the baseline: how many findings it knew
// and its stale entries (an empty list rather than null when there are none).
func jsonBaseline(file string, known int, stale []baseline.Stale) *jsonout.Baseline {
	jb := &jsonout.Baseline{File: file, Known: known, Stale: []jsonout.StaleEntry{}}
	for _, s := range stale {
		jb.Stale = append(jb.Stale, jsonout.StaleEntry{Fingerprint: s.Fingerprint, Kind: s.Kind, Package: s.Package, Handler: s.Handler, Message: s.Message, Count: s.Missing})
	}
	return jb
}

func (f *checkFlags) validate(patterns []string) error {
	if len(patterns) == 0 {
		return errors.New("no packages named (try ./...); run idemlint -h for usage")
	}
	if !slices.Contains(formats, f.format) {
		return fmt.Errorf("-format %q: want one of %s", f.format, strings.Join(formats, ", "))
	}
	formatSet := f.format != "text"
	switch {
	case f.legacyJSON && (formatSet || f.baseline != ""):
		return errors.New("-json is the go/analysis JSON tree; for idemlint's JSON (and baselines) use -format json")
	case f.writeBaseline && f.baseline == "":
		return errors.New("-write-baseline needs -baseline FILE")
	case f.diff && (formatSet || f.baseline != "" || f.legacyJSON):
		return errors.New("-diff previews the fixes as a diff: drop -format, -json and -baseline")
	case f.fix && (formatSet || f.baseline != "" || f.legacyJSON):
		return errors.New("-fix applies fixes and reports what it changed: drop -format, -json and -baseline")
	}
	return nil
}

// write sends output to -o or to stdout (findings are the command's output, as with
// staticcheck and golangci-lint; progress and the summary go to stderr).
func (f *checkFlags) write(stdout, stderr io.Writer, write func(io.Writer) error) int {
	w := stdout
	if f.output != "" {
		file, err := os.Create(f.output)
		if err != nil {
			fmt.Fprintf(stderr, "idemlint: %v\n", err)
			return exitError
		}
		defer file.Close()
		w = file
		if err := write(w); err != nil {
			fmt.Fprintf(stderr, "idemlint: writing %s: %v\n", f.output, err)
			return exitError
		}
		if err := file.Close(); err != nil {
			fmt.Fprintf(stderr, "idemlint: writing %s: %v\n", f.output, err)
			return exitError
		}
		return exitClean
	}
	if err := write(w); err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
		return exitError
	}
	return exitClean
}

// applyFixes applies the first suggested fix of each diagnostic (with diff set, prints them
// as a unified diff instead), says what it changed, and returns the exit status and the
// number of fixes applied.
func applyFixes(graph *checker.Graph, diff bool, wd string, stdout, stderr io.Writer) (int, int) {
	var actions []fix.Action
	for _, act := range graph.Roots {
		if act.Err == nil {
			actions = append(actions, fix.Action{Fset: act.Package.Fset, Files: act.Package.Syntax, Diagnostics: act.Diagnostics})
		}
	}
	var w io.Writer
	var buf strings.Builder
	if diff {
		w = &buf
	}
	sum, err := fix.Apply(actions, w)
	if diff {
		// The diff's file names relative to the working directory, as the findings'.
		for _, line := range strings.SplitAfter(buf.String(), "\n") {
			if name, ok := strings.CutPrefix(line, "--- "); ok {
				line = "--- " + text.Rel(wd, name)
			} else if name, ok := strings.CutPrefix(line, "+++ "); ok {
				line = "+++ " + text.Rel(wd, name)
			}
			io.WriteString(stdout, line)
		}
	}
	printFixes(stderr, sum, diff, wd)
	if err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
		return exitError, sum.Applied
	}
	return exitClean, sum.Applied
}

// printFixes says what -fix changed (or, with -diff, would change), file by file, and
// which decisions the inserted //idemlint:decisions skeletons leave to the reader (the
// "?" values).
func printFixes(w io.Writer, sum fix.Summary, diff bool, wd string) {
	verb := "applied"
	if diff {
		verb = "would apply"
	}
	if len(sum.Files) == 0 {
		fmt.Fprintln(w, "idemlint: -fix: no fixes to apply")
		return
	}
	fmt.Fprintf(w, "idemlint: -fix: %s %s in %s:\n", verb, plural(sum.Applied, "fix"), plural(len(sum.Files), "file"))
	for _, name := range sum.Files {
		fmt.Fprintf(w, "\t%s (%d)\n", text.Rel(wd, name), sum.PerFile[name])
	}
	if sum.Generated > 0 {
		fmt.Fprintf(w, "idemlint: -fix: skipped %s to generated files\n", plural(sum.Generated, "fix"))
	}
	if diff {
		return
	}
	var open []string
	for _, name := range sum.Files {
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "//idemlint:decisions") && strings.Contains(line, "=?") {
				open = append(open, fmt.Sprintf("\t%s:%d: %s", text.Rel(wd, name), i+1, strings.TrimSpace(line)))
			}
		}
	}
	if len(open) > 0 {
		fmt.Fprintf(w, "idemlint: -fix: %s left to decide: replace each ? with the answer, and give the reason after --:\n%s\n",
			plural(len(open), "decisions directive"), strings.Join(open, "\n"))
	}
}

// closingLine is the closing line for long runs and CI logs.
func closingLine(run *result.Run, reported []*result.Finding, wd string) string {
	s := fmt.Sprintf("idemlint: %s analysed, %s, %s", plural(run.Packages, "package"), plural(len(run.Handlers), "handler"), plural(len(reported), "finding"))
	if known := len(run.Findings) - len(reported); known > 0 {
		s = fmt.Sprintf("idemlint: %s analysed, %s, %s (%d in the baseline)", plural(run.Packages, "package"), plural(len(run.Handlers), "handler"), plural(len(reported), "new finding"), known)
	}
	tests, _, rest := testOnly(run.Errors, wd)
	importers := cascades(rest)
	blocked := map[string]bool{} // importers of a package that failed, not failing themselves
	for _, ps := range importers {
		for _, p := range ps {
			blocked[p] = true
		}
	}
	own := map[string]bool{} // the packages (or missing imports) that failed on their own
	for _, e := range rest {
		if m := cannotImport.FindStringSubmatch(e.Message); m == nil || importers[m[1]] == nil {
			own[rootOf(e)] = true
		}
	}
	if len(own) > 0 {
		s += fmt.Sprintf(", %s", plural(len(own), "package error"))
	}
	if len(blocked) > 0 {
		verb := "import"
		if len(blocked) == 1 {
			verb = "imports"
		}
		s += fmt.Sprintf(" (%s that %s a failed one not analysed)", plural(len(blocked), "package"), verb)
	}
	if len(tests) > 0 {
		s += fmt.Sprintf(", tests of %s not loaded", plural(len(tests), "package"))
	}
	return s + fmt.Sprintf(", %.1fs", run.Duration.Seconds()) + cachedNote(run)
}

// printTiming prints the slowest actions, as the checker's -debug=t does.
func printTiming(w io.Writer, graph *checker.Graph) {
	var list []*checker.Action
	var total time.Duration
	for act := range graph.All() {
		list = append(list, act)
		total += act.Duration
	}
	slices.SortFunc(list, func(a, b *checker.Action) int { return int(b.Duration - a.Duration) })
	var sum time.Duration
	for _, act := range list {
		fmt.Fprintf(w, "%s\t%s\n", act.Duration, act)
		if sum += act.Duration; sum >= total*9/10 {
			break
		}
	}
	if total > sum {
		fmt.Fprintf(w, "%s\tall others\n", total-sum)
	}
}

// profile starts the profiles the flags ask for and returns what stops and writes them.
func (f *checkFlags) profile() (stop func(), err error) {
	var stops []func()
	stop = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	if f.cpuprofile != "" {
		file, err := os.Create(f.cpuprofile)
		if err != nil {
			return stop, err
		}
		if err := pprof.StartCPUProfile(file); err != nil {
			return stop, err
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); file.Close() })
	}
	if f.trace != "" {
		file, err := os.Create(f.trace)
		if err != nil {
			return stop, err
		}
		if err := trace.Start(file); err != nil {
			return stop, err
		}
		stops = append(stops, func() { trace.Stop(); file.Close() })
	}
	if f.memprofile != "" {
		file, err := os.Create(f.memprofile)
		if err != nil {
			return stop, err
		}
		stops = append(stops, func() {
			runtime.GC()
			pprof.WriteHeapProfile(file)
			file.Close()
		})
	}
	return stop, nil
}

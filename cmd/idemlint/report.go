package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chokaq/idemlint/internal/baseline"
	"github.com/chokaq/idemlint/internal/driver"
	"github.com/chokaq/idemlint/internal/inventory"
	"github.com/chokaq/idemlint/internal/result"
)

type reportFlags struct {
	common
	output, format, title string
}

var reportGroups = []group{
	{"Output", []string{"o", "format", "title", "q"}},
	{"Findings", []string{"baseline"}},
	{"What to check (override .idemlint.yml)", []string{"disable", "enable", "decisions", "shared-sinks", "models", "builtin", "schema", "test", "tags", "program"}},
	{"Other", []string{"cache"}},
}

func newReportFlags() (*flag.FlagSet, *reportFlags) {
	f := &reportFlags{}
	fs := flag.NewFlagSet("idemlint report", flag.ContinueOnError)
	f.register(fs)
	fs.StringVar(&f.output, "o", "", "write the report to this file (default stdout)")
	fs.StringVar(&f.format, "format", "", "html or markdown (default: markdown for a .md -o file, else html)")
	fs.StringVar(&f.title, "title", "", "the report's title (default: idemlint handler inventory: DIR)")
	fs.StringVar(&f.baseline, "baseline", "", "mark the findings recorded in this baseline file")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprint(w, `Usage: idemlint report [flags] [packages]

Writes the handler inventory: every handler found, by framework and package, with its
effects, guards, chains, checklist decisions and directives. HTML is one self-contained
file (sortable, filterable, readable offline); Markdown suits a pull request or a wiki.
Settings come from .idemlint.yml, as for the check; flags override it.

Example: idemlint report -o report.html ./...
`)
		printFlags(w, fs, reportGroups)
	}
	return fs, f
}

// reportCommand runs "idemlint report": the handler inventory. Its exit status does not depend
// on findings (the report is the product): 0 when written, 1 when some packages failed
// (the report is still written and lists them) or none could be loaded (nothing is
// written), 2 on bad usage.
func reportCommand(args []string, stdout, stderr io.Writer) int {
	start := time.Now()
	fs, f := newReportFlags()
	if code, done := parse(fs, args, stdout, stderr); done {
		return code
	}
	cfg, base, err := f.prepare(fs, stderr)
	if err != nil {
		return fail(stderr, err)
	}

	out, err := analyseRun(cfg)
	if err != nil {
		return fail(stderr, err)
	}
	run := out.Run
	run.Duration = time.Since(start)
	wd, _ := os.Getwd()
	failed := printLoadErrors(stderr, run.Errors, wd)
	if base != nil {
		base.Apply(run.Findings)
	}
	view := inventory.Build(f.reportTitle(wd), run)
	if err := f.render(stdout, view); err != nil {
		return fail(stderr, fmt.Errorf("report: %v", err))
	}
	if !f.quiet {
		printReportSummary(stderr, view.Summary, f.output, run)
	}
	if failed > 0 {
		return exitError
	}
	return exitClean
}

// prepare settles the format (from the -o file's extension when not given), checks the
// flags and reads what the run needs before anything is loaded, so that bad usage fails
// fast: the driver's configuration and the -baseline file, whose findings the report
// marks as known.
func (f *reportFlags) prepare(fs *flag.FlagSet, stderr io.Writer) (driver.Config, *baseline.File, error) {
	if f.format == "" {
		f.format = "html"
		if strings.HasSuffix(f.output, ".md") {
			f.format = "markdown"
		}
	}
	if f.format != "html" && f.format != "markdown" {
		return driver.Config{}, nil, usagef("report: -format %q: want html or markdown", f.format)
	}
	if fs.NArg() == 0 {
		return driver.Config{}, nil, usagef("report: no packages named (try ./...)")
	}
	if err := checkOutput(f.output); err != nil {
		return driver.Config{}, nil, err
	}
	cfg, err := f.config(fs, fs.Args(), stderr)
	if err != nil {
		return driver.Config{}, nil, err
	}
	var base *baseline.File
	if f.baseline != "" {
		if base, err = baseline.Read(f.baseline); err != nil {
			return driver.Config{}, nil, usagef("report: -baseline %s: %v", f.baseline, err)
		}
	}
	return cfg, base, nil
}

// reportTitle is the -title, or one naming the directory the report was run in, so that
// reports of several modules can be told apart.
func (f *reportFlags) reportTitle(wd string) string {
	if f.title != "" {
		return f.title
	}
	return "idemlint handler inventory: " + filepath.Base(wd)
}

// render writes the view in the -format to the -o file, or to stdout. An error closing
// the file counts as a failure to write it: the report would be incomplete.
func (f *reportFlags) render(stdout io.Writer, view *inventory.View) error {
	render := inventory.HTML
	if f.format == "markdown" {
		render = inventory.Markdown
	}
	if f.output == "" {
		return render(stdout, view)
	}
	file, err := os.Create(f.output)
	if err != nil {
		return err
	}
	err = render(file, view)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	return err
}

// printReportSummary prints the closing line: the counts a reader checks first, and
// where the report went.
func printReportSummary(stderr io.Writer, s inventory.Summary, output string, run *result.Run) {
	where := ""
	if output != "" {
		where = " in " + output
	}
	fmt.Fprintf(stderr, "idemlint report: %s (%d protected, %d with findings), %s%s, %.1fs%s\n",
		plural(s.Handlers, "handler"), s.Protected, s.WithFindings, plural(s.Findings, "finding"), where, run.Duration.Seconds(), cachedNote(run))
}

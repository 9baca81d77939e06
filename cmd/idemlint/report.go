package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/chokaq/idemlint/internal/baseline"
	"github.com/chokaq/idemlint/internal/driver"
	"github.com/chokaq/idemlint/internal/inventory"
)

// report runs "idemlint report": the handler inventory. Its exit status does not depend
// on findings (the report is the product): 0 when written, 1 when some packages failed
// (the report is still written and lists them), 2 on bad usage.
func report(args []string, stdout, stderr io.Writer) int {
	var c common
	var output, format, title string
	fs := flag.NewFlagSet("idemlint report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.register(fs)
	fs.StringVar(&output, "o", "", "write the report to this file (default stdout)")
	fs.StringVar(&format, "format", "", "html or markdown (default: markdown for a .md -o file, else html)")
	fs.StringVar(&title, "title", "", "the report's title (default: idemlint handler inventory: DIR)")
	fs.StringVar(&c.baseline, "baseline", "", "mark the findings recorded in this baseline file")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `Usage: idemlint report [flags] [packages]

Writes the handler inventory: every handler found, by framework and package, with its
effects, guards, chains, checklist decisions and directives. HTML is one self-contained
file (sortable, filterable, readable offline); Markdown suits a pull request or a wiki.

Example: idemlint report -o report.html ./...

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitClean
		}
		return exitUsage
	}
	if format == "" {
		format = "html"
		if strings.HasSuffix(output, ".md") {
			format = "markdown"
		}
	}
	if format != "html" && format != "markdown" {
		fmt.Fprintf(stderr, "idemlint report: -format %q: want html or markdown\n", format)
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "idemlint report: no packages named (try ./...)")
		return exitUsage
	}
	cfg, err := c.config(fs.Args(), stderr)
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return exitUsage
	}
	var base *baseline.File
	if c.baseline != "" {
		if base, err = baseline.Read(c.baseline); err != nil {
			fmt.Fprintf(stderr, "idemlint report: -baseline %s: %v\n", c.baseline, err)
			return exitUsage
		}
	}

	out, err := driver.Run(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "idemlint: %v\n", err)
		return exitError
	}
	run := out.Run
	printErrors(stderr, run.Errors)
	if base != nil {
		base.Apply(run.Findings)
	}
	if title == "" {
		wd, _ := os.Getwd()
		title = "idemlint handler inventory: " + filepath.Base(wd)
	}
	view := inventory.Build(title, run)
	render := inventory.HTML
	if format == "markdown" {
		render = inventory.Markdown
	}
	w := stdout
	var file *os.File
	if output != "" {
		if file, err = os.Create(output); err != nil {
			fmt.Fprintf(stderr, "idemlint report: %v\n", err)
			return exitError
		}
		w = file
	}
	err = render(w, view)
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "idemlint report: %v\n", err)
		return exitError
	}
	if !c.quiet {
		s := view.Summary
		where := ""
		if output != "" {
			where = " in " + output
		}
		fmt.Fprintf(stderr, "idemlint report: %d handlers (%d protected, %d with findings), %d findings%s, %.1fs\n",
			s.Handlers, s.Protected, s.WithFindings, s.Findings, where, run.Duration.Seconds())
	}
	if len(run.Errors) > 0 {
		return exitError
	}
	return exitClean
}

package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/chokaq/idemlint/internal/driver"
	"github.com/chokaq/idemlint/internal/output/text"
	"github.com/chokaq/idemlint/internal/result"
)

// What both subcommands, the check and the report, do with a run: make it, and print what
// every run says besides its findings (errors, whether the cache answered, the version).

// loadPackages loads what cfg names; the tests replace it to share loaded packages.
var loadPackages = func(cfg driver.Config) (*driver.Loaded, error) { return driver.Load(cfg, nil) }

// analyseRun loads and analyses, or answers from the cache when cfg has one.
func analyseRun(cfg driver.Config) (*driver.Output, error) {
	if cfg.Cache != nil {
		return driver.Run(cfg)
	}
	l, err := loadPackages(cfg)
	if err != nil {
		return nil, err
	}
	return driver.Analyze(cfg, l)
}

// printErrors prints load errors as go/packages does (position first, so editors can jump
// to them) and analysis failures prefixed with the tool's name, as the checker does.
func printErrors(w io.Writer, errs []result.Error, wd string) {
	for _, e := range errs {
		if e.Load {
			if msg, ok := strings.CutPrefix(e.Message, "-: "); ok { // no position
				fmt.Fprintf(w, "idemlint: %s: %s\n", e.Package, msg)
			} else {
				fmt.Fprintln(w, text.RelPrefix(wd, e.Message))
			}
		} else {
			fmt.Fprintf(w, "idemlint: %s: %s\n", e.Package, e.Message)
		}
	}
}

// cachedNote marks a summary line of a run answered from the cache, as go test does, or
// of one that analysed only what changed.
func cachedNote(run *result.Run) string {
	switch {
	case run.Cached:
		return " (cached)"
	case run.Reused > 0:
		return fmt.Sprintf(" (%d from the cache)", run.Reused)
	}
	return ""
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "x") {
		return fmt.Sprintf("%d %ses", n, what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// printVersion prints this build's version and the Go it was built with.
func printVersion(w io.Writer) {
	fmt.Fprintf(w, "idemlint %s (%s %s/%s)\n", driver.Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

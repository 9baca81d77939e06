package main

import (
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

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
	start := time.Now()
	l, err := loadPackages(cfg)
	if err != nil {
		return nil, err
	}
	load := driver.Phase{Name: "load", Wall: time.Since(start), PeakRSS: driver.PeakRSS()}
	out, err := driver.Analyze(cfg, l)
	if err != nil {
		return nil, err
	}
	out.Phases = append([]driver.Phase{load}, out.Phases...)
	return out, nil
}

// printErrors prints load errors as go/packages does (position first, so editors can jump
// to them) and analysis failures prefixed with the tool's name, as the checker does. A
// package that cannot be imported because it failed itself (a module the proxy refused, a
// package that does not exist) gives every importer a "could not import X" error: those
// are left out, and X's own error says once which packages they are.
func printErrors(w io.Writer, errs []result.Error, wd string) {
	importers := cascades(errs)
	said := map[string]bool{}
	for _, e := range errs {
		if m := cannotImport.FindStringSubmatch(e.Message); m != nil && importers[m[1]] != nil {
			continue
		}
		if e.Load {
			if msg, ok := strings.CutPrefix(e.Message, "-: "); ok { // no position
				fmt.Fprintf(w, "idemlint: %s: %s\n", e.Package, msg)
			} else {
				fmt.Fprintln(w, text.RelPrefix(wd, e.Message))
			}
		} else {
			fmt.Fprintf(w, "idemlint: %s: %s\n", e.Package, e.Message)
		}
		if ps := importers[rootOf(e)]; ps != nil && !said[rootOf(e)] {
			said[rootOf(e)] = true
			fmt.Fprintf(w, "\t(so %s that import%s %s could not be analysed: %s)\n", plural(len(ps), "package"), map[bool]string{true: "s", false: ""}[len(ps) == 1], rootOf(e), strings.Join(ps, ", "))
		}
	}
}

// cannotImport matches the error an importer gets for a package that did not load.
var cannotImport = regexp.MustCompile(`could not import (\S+) \(`)

// noModule matches the go command's error for an import no module provides.
var noModule = regexp.MustCompile(`no required module provides package (\S+?);`)

// rootOf is the package an error is the cause for: the package it belongs to, or the
// package no module provides that the go command reports at the import.
func rootOf(e result.Error) string {
	if m := noModule.FindStringSubmatch(e.Message); m != nil {
		return m[1]
	}
	return e.Package
}

// cascades maps each package that failed on its own to the packages whose only trouble
// with it is that they could not import it (sorted, each once).
func cascades(errs []result.Error) map[string][]string {
	roots := map[string]bool{}
	for _, e := range errs {
		if !cannotImport.MatchString(e.Message) {
			roots[rootOf(e)] = true
		}
	}
	out := map[string][]string{}
	for _, e := range errs {
		if m := cannotImport.FindStringSubmatch(e.Message); m != nil && roots[m[1]] {
			if !slices.Contains(out[m[1]], e.Package) {
				out[m[1]] = append(out[m[1]], e.Package)
			}
		}
	}
	for _, ps := range out {
		slices.Sort(ps)
	}
	return out
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

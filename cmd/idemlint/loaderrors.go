package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/output/text"
	"github.com/chokaq/idemlint/internal/result"
)

// testOnly splits a run's errors into those of test variants whose package itself loaded
// (the errors are in its _test.go files: generated mocks not committed, a test helper out of
// date) and the rest. A package whose tests do not load was still analysed whole without
// them, so only the rest fail the run; the test variants are named once (testNote).
func testOnly(errs []result.Error, wd string) (tests []string, testErrs map[string][]result.Error, rest []result.Error) {
	failed := map[string]bool{}
	for _, e := range errs {
		if !isTestVariant(e.Package) && !inTestFile(e) {
			failed[e.Package] = true
		}
	}
	// The directories of the test files in error, by package under test: an error at a test
	// file's import of a package that does not exist (a mock not generated) is that
	// package's tests' error.
	byDir := map[string]string{}
	for _, e := range errs {
		if isTestVariant(e.Package) && inTestFile(e) {
			byDir[errorDir(e, wd)] = underTest(e.Package)
		}
	}
	testErrs = map[string][]result.Error{}
	for _, e := range errs {
		p := e.Package
		switch {
		case isTestVariant(e.Package) && !failed[underTest(e.Package)]:
			p = underTest(e.Package)
		case inTestFile(e) && !failed[byDir[errorDir(e, wd)]]:
			if q, ok := byDir[errorDir(e, wd)]; ok {
				p = q
			}
		default:
			rest = append(rest, e)
			continue
		}
		if testErrs[p] == nil {
			tests = append(tests, p)
		}
		testErrs[p] = append(testErrs[p], e)
	}
	slices.Sort(tests)
	return tests, testErrs, rest
}

// inTestFile reports whether an error is placed in a _test.go file ("p/x_test.go:5:2: ...").
func inTestFile(e result.Error) bool {
	file, _, ok := strings.Cut(e.Message, ":")
	return ok && strings.HasSuffix(file, "_test.go")
}

// errorDir is the directory of the file an error is placed in, absolute (the go command
// gives some positions relative to the working directory wd).
func errorDir(e result.Error, wd string) string {
	file, _, _ := strings.Cut(e.Message, ":")
	if !filepath.IsAbs(file) {
		file = filepath.Join(wd, file)
	}
	return filepath.Dir(file)
}

// isTestVariant reports whether a package ID is one go test builds: "p [p.test]" (the package
// with its internal tests), "p_test [p.test]" (its external tests) or "p.test" (the
// generated main).
func isTestVariant(id string) bool {
	path, _, _ := strings.Cut(id, " ")
	return strings.Contains(id, " [") || strings.HasSuffix(path, "_test") || strings.HasSuffix(path, ".test")
}

// underTest is the package a test variant's ID tests: "p" for "p_test [p.test]".
func underTest(id string) string {
	path, _, _ := strings.Cut(id, " ")
	path = strings.TrimSuffix(path, ".test")
	return strings.TrimSuffix(path, "_test")
}

// testNote is the one note for packages whose tests did not load: which, the first error of
// each (and how many more), and what to do.
func testNote(w io.Writer, tests []string, testErrs map[string][]result.Error, wd string) {
	if len(tests) == 0 {
		return
	}
	itself := "the package itself was"
	if len(tests) > 1 {
		itself = "the packages themselves were"
	}
	fmt.Fprintf(w, "idemlint: the tests of %s did not load, so they were not analysed (%s):\n", plural(len(tests), "package"), itself)
	for _, p := range tests {
		errs := testErrs[p]
		first, _, _ := strings.Cut(strings.TrimPrefix(text.RelPrefix(wd, errs[0].Message), "-: "), "\n")
		more := ""
		if len(errs) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(errs)-1)
		}
		fmt.Fprintf(w, "\t%s: %s%s\n", p, first, more)
	}
	fmt.Fprintln(w, "idemlint: if the tests use generated code (mocks), run go generate ./... first; -test=false leaves tests out")
}

// printLoadErrors prints the errors that fail the run (printErrors), then the note for the
// tests that did not load, and returns how many errors fail the run.
func printLoadErrors(w io.Writer, errs []result.Error, wd string) int {
	tests, testErrs, rest := testOnly(errs, wd)
	printErrors(w, rest, wd)
	testNote(w, tests, testErrs, wd)
	return len(rest)
}

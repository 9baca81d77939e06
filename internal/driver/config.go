package driver

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/cache"
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
	// without parsing or type-checking, or reanalyses only what changed (the result store,
	// internal/reuse; see runCached). Output.Graph is nil then: a caller that needs the
	// checker's graph (-fix, the legacy -json tree, -debug) leaves it unset.
	Cache *cache.Cache

	// Graph asks for Output.Graph, the x/tools checker's graph of the last round (-fix, the
	// legacy -json tree, -debug=t read it): the program's packages are then held whole
	// through the rounds, where otherwise each is let go of when its pass ends.
	Graph bool

	// fullSyntax parses every package in full, as go/packages does by default, even those
	// the analysis skips whole (for tests that prove the trimming changes nothing).
	fullSyntax bool
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

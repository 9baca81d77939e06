// Package reuse is the result store: it answers a run from what earlier runs stored
// instead of analysing again. Its one job is to know what a stored result depends on and
// when it still holds: the keys of a run and of every package (computed from the packages'
// metadata, with that metadata itself stored so that go list can be skipped), the early
// cut-off signatures of what a package gives its importers, the entries of every package
// (facts, link summary, retry settings, output) and its export data, and the reuse runs
// that type-check and analyse only the packages whose entries are missing.
//
// Loading and analysing from source are the driver's (internal/driver): the store is handed
// what it needs of them as Inputs, and hands back results, so that the driver can run
// without a cache and the store has no reach into the driver's state. The rounds of the
// program-wide link (internal/rounds) and the per-package output (internal/pkgout) are
// shared by both, so a reuse run judges and prints a program as a full run does.
package reuse

import (
	"go/ast"
	"go/token"

	"golang.org/x/tools/go/analysis"

	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/result"
)

// Inputs is what the store needs of the run and of the driver.
type Inputs struct {
	Cache    *cache.Cache
	Analyzer *analysis.Analyzer // made by package analyzer (the store reuses only its results)

	// What to load and how, as the driver's Config says (each is part of the run's key).
	Patterns     []string
	Tests        bool
	PatternsOnly bool
	BuildFlags   []string
	Disabled     []string
	// FullSyntax is a run that parses every package in full (the driver's tests): its
	// results are stored, but no run is answered package by package.
	FullSyntax bool

	Verbose bool        // log what the store answered, and why not
	Root    string      // the directory machine-readable paths are relative to
	Tool    result.Tool // this build of idemlint, as the runs the store makes name it

	// Program lists the program's packages for the patterns (the driver's rule: the main
	// module of the named packages, unless PatternsOnly): the IDs of the named packages when
	// the program is wider (else nil) and the patterns that load the program. The store
	// calls it only when the patterns do not already name the whole program.
	Program func() (named map[string]bool, patterns []string, err error)
	// Parser returns the driver's parsing rule, with modcache the module cache directory;
	// nil when it has none (the analyzer's models do not load).
	Parser func(modcache string) Parser
	// Progress shows what a reuse run is doing.
	Progress Progress
}

// Parser is how the driver parses a package's files, which a reuse run follows for the
// packages it type-checks: what the analysis skips whole is parsed without function bodies.
type Parser interface {
	// ParseFile parses a file as a packages.Config.ParseFile does.
	ParseFile(fset *token.FileSet, name string, src []byte) (*ast.File, error)
	// Unread reports whether the analysis skips the package of the file whole.
	Unread(file string) bool
}

// Progress is the driver's status line.
type Progress interface {
	Phase(msg string)
	Clear()
}

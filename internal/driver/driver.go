// Package driver loads packages with go/packages, runs the idemlint analyzer on them with
// go/analysis/checker (in the rounds of the program-wide link: internal/rounds), and turns
// what the analyzer reported into a result.Run (internal/pkgout): findings matched to their
// structured form and fingerprinted, handlers with their effects and directives, load and
// analysis errors. With a cache it asks the result store (internal/reuse) first, handing it
// what the store needs of loading (how the program is listed and parsed), and analyses
// only when the store cannot answer.
//
// It is the part of the command that knows about go/packages and go/token; the output
// formats, the baseline and the inventory work on the plain result it returns.
package driver

import (
	"strings"
	"time"

	"golang.org/x/tools/go/analysis/checker"

	"github.com/chokaq/idemlint/internal/result"
	"github.com/chokaq/idemlint/internal/reuse"
)

// Output is a finished run: the checker's graph (for -fix and the legacy -json tree) and
// the result the formats read (Graph is nil when the result came from the cache, and
// unless Config.Graph asked for it).
type Output struct {
	Graph *checker.Graph
	Run   *result.Run
	// Phases are the run's phases, in order: "load" (listing the packages), "dependencies"
	// (type-checking and analysing each dependency, then letting go of its syntax) and
	// "analyse" (type-checking and analysing the program's own packages in the program-wide
	// link's rounds), or "cache" for a run the cache answered whole or in part.
	Phases []Phase

	metadataCached bool // the program's metadata was the store's: no go list ran (reuse.Session.MetadataCached)
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
	clock := newPhaseClock(start)
	pkgs, err := Load(cfg, progress)
	if err != nil {
		return nil, err
	}
	clock.end("load")
	out, err := output(analyse(cfg, pkgs, start, clock, progress, nil))
	if err != nil {
		return nil, err
	}
	clock.end("analyse")
	out.Phases = clock.phases
	return out, nil
}

// runCached is Run with a cache. The result store (internal/reuse) computes the run's key
// from the packages' metadata and answers from what earlier runs stored: the whole run when
// nothing changed, or the changed packages analysed against the others' stored entries. When
// it cannot, the program is loaded and analysed as without a cache, the store keeping what
// each package gives, and then the run.
func runCached(cfg Config, start time.Time, progress *progress) (*Output, error) {
	clock := newPhaseClock(start)
	s, err := reuse.Open(storeInputs(cfg, progress))
	if err != nil {
		return nil, err
	}
	if run := s.Hit(); run != nil {
		run.Duration = time.Since(start)
		run.Cached = true
		clock.end("cache")
		return &Output{Run: run, Phases: clock.phases, metadataCached: s.MetadataCached()}, nil
	}
	run, ok, err := s.Reuse()
	if err != nil {
		return nil, err
	}
	if ok {
		run.Duration = time.Since(start)
		clock.end("cache")
		return &Output{Run: run, Phases: clock.phases, metadataCached: s.MetadataCached()}, nil
	}
	clock.end("cache")
	named, patterns := s.Program()
	progress.Phase("loading " + strings.Join(cfg.Patterns, " "))
	l, err := loadProgram(cfg, named, patterns)
	progress.Clear()
	if err != nil {
		return nil, err
	}
	clock.end("load")
	graph, run, err := analyse(cfg, l, start, clock, progress, s.Rounds(l.pkgs))
	if err != nil {
		return nil, err
	}
	s.Store(run)
	clock.end("analyse")
	return &Output{Graph: graph, Run: run, Phases: clock.phases, metadataCached: s.MetadataCached()}, nil
}

// Analyze runs the analyzer of cfg on packages loaded by Load. Its Output's phases are
// those after the load: "dependencies" for idemlint's analyzer (which type-checks what Load
// listed), and "analyse".
func Analyze(cfg Config, l *Loaded) (*Output, error) {
	start := time.Now()
	clock := newPhaseClock(start)
	out, err := output(analyse(cfg, l, start, clock, newProgress(cfg.Progress), nil))
	if err != nil {
		return nil, err
	}
	clock.end("analyse")
	out.Phases = clock.phases
	return out, nil
}

// output is a full run's Output.
func output(graph *checker.Graph, run *result.Run, err error) (*Output, error) {
	if err != nil {
		return nil, err
	}
	return &Output{Graph: graph, Run: run}, nil
}

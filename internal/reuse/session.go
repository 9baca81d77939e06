package reuse

import (
	"context"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"slices"

	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/result"
	"github.com/chokaq/idemlint/internal/rounds"
)

// Session is one run's use of the store. Open computes the run's key from the packages'
// metadata (one go list, or none when the stored metadata still holds: metadata.go; no
// parsing or type-checking) and looks the run up; on a miss the run is answered by package
// when few packages changed (Reuse), or else the driver loads and analyses the program in
// full, storing what each package gives as it goes (Rounds), and then the run (Store). A
// result is stored only when no package failed (a failure may come from outside the key: a
// module not yet downloaded, a network error). A cache that cannot be read or written only
// costs time.
type Session struct {
	cfg      Inputs
	named    map[string]bool
	patterns []string
	keys     *runKeys  // nil when the run has no key: nothing is looked up or stored
	st       *pkgStore // nil when the run is not stored by package
	hit      *result.Run
}

// Open starts a run with the cache: it lists the program, computes its key and reads the
// stored run if there is one. An error is the program's listing's (cfg.Program): nothing
// can be run.
func Open(cfg Inputs) (*Session, error) {
	if cfg.Progress == nil {
		cfg.Progress = noProgress{}
	}
	// go env and go list take most of a warm run: at the root of a module, the list that
	// programOf will most likely ask for starts beside go env.
	var early *listing
	if whole(cfg) {
		if _, err := os.Stat("go.mod"); err == nil {
			early = startList(cfg, cfg.Patterns)
		}
	}
	in, inErr := newKeyInputs()
	named, patterns, root, err := programOf(cfg, in)
	if err != nil {
		return nil, err
	}
	if early != nil && root == "" {
		early.cancel() // not the program's list
		early = nil
	}
	s := &Session{cfg: cfg, named: named, patterns: patterns}
	keys, keyErr := listRun(cfg, in, inErr, named, patterns, early, root)
	if keyErr != nil {
		if cfg.Verbose {
			log.Printf("cache: no key, analysing without the cache: %v", keyErr)
		}
		return s, nil
	}
	s.keys = keys
	if data, ok := cfg.Cache.Get(keys.run); ok {
		if run, err := decodeRun(data); err == nil {
			if cfg.Verbose {
				log.Printf("cache: hit %s", keys.run)
			}
			s.hit = run
			return s, nil
		}
	}
	if base, err := entryBase(cfg, keys.in, keys.tool); err == nil && cfg.Analyzer.ResultType == reflect.TypeFor[*analyzer.Result]() {
		s.st = newPkgStore(cfg, base, keys)
	}
	return s, nil
}

// Hit is the stored result of the run, nil when there is none. Its Duration and Cached are
// the caller's to set.
func (s *Session) Hit() *result.Run { return s.hit }

// MetadataCached tells that the program's metadata was the store's: no go list ran.
func (s *Session) MetadataCached() bool { return s.keys != nil && s.keys.metadataCached }

// Program is what the driver loads for a full run: the IDs of the named packages when the
// program is wider (else nil), and the patterns that load it.
func (s *Session) Program() (named map[string]bool, patterns []string) { return s.named, s.patterns }

// Reuse answers the run from the package entries of earlier runs (reuseRun) and stores its
// result; ok is false when it cannot, and the run must be a full one.
func (s *Session) Reuse() (run *result.Run, ok bool, err error) {
	if s.st == nil {
		return nil, false, nil
	}
	run, ok, err = reuseRun(s.cfg, s.st, s.keys.roots, s.named)
	if err != nil || !ok {
		return nil, ok, err
	}
	storeRun(s.cfg.Cache, s.keys.run, run, s.cfg.Verbose)
	return run, true, nil
}

// Rounds is what each round of a full run's analysis of pkgs does with each package's
// analysis: store its entry and export data (nil when the run is not stored by package).
func (s *Session) Rounds(pkgs []*packages.Package) rounds.OnRound {
	if s.st == nil {
		return nil
	}
	s.st.exporting(pkgs)
	var first *roundSigs
	return func(p analyzer.Program, links link.Links) func(rounds.PassRecord, *rounds.Outcome) {
		rs := newRoundSigs()
		if first == nil {
			first = rs
			return s.st.hook(p, links, rs)
		}
		// The driver analyses the dependencies in the first round only (rounds.Dependencies)
		// and records them as restored in the later ones (rounds.Recorder.Restore, or the
		// checker's passes that export their facts): their signatures are the first round's.
		later := s.st.hook(p, links, rs)
		return func(pr rounds.PassRecord, o *rounds.Outcome) {
			if pr.Restored {
				if sig, ok := first.get(pr.Pkg.ID); ok {
					rs.set(pr.Pkg.ID, sig)
				}
				return
			}
			later(pr, o)
		}
	}
}

// Store stores a full run's result, and the number of packages it analysed (which a
// reuse run of the same program reports).
func (s *Session) Store(run *result.Run) {
	if s.keys == nil {
		return
	}
	if s.st != nil {
		s.st.putCount(s.keys.roots, run.Packages)
	}
	storeRun(s.cfg.Cache, s.keys.run, run, s.cfg.Verbose)
}

// programOf is cfg.Program, without listing the packages when the patterns are ./... at the
// root of the main module (no workspace): that names the whole program, and root is the
// module's directory. A run answered from the cache is then one go list, or none.
func programOf(cfg Inputs, in *keyInputs) (named map[string]bool, patterns []string, root string, err error) {
	if in != nil && whole(cfg) {
		wd, _ := os.Getwd()
		gomod, gowork := in.envVar("GOMOD"), in.envVar("GOWORK")
		if gomod != "" && gomod != os.DevNull && filepath.Dir(gomod) == wd && (gowork == "" || gowork == "off") {
			return nil, cfg.Patterns, wd, nil
		}
	}
	named, patterns, err = cfg.Program()
	return named, patterns, "", err
}

// whole reports whether cfg's patterns are ./... for the program (the main module's
// packages, when the patterns are at its root).
func whole(cfg Inputs) bool {
	return !cfg.PatternsOnly && slices.Equal(cfg.Patterns, []string{"./..."})
}

// listing is a go list of the packages' metadata, running.
type listing struct {
	done  chan struct{}
	stop  context.CancelFunc
	roots []*packages.Package
	err   error
}

func startList(cfg Inputs, patterns []string) *listing {
	ctx, stop := context.WithCancel(context.Background())
	l := &listing{done: make(chan struct{}), stop: stop}
	go func() {
		defer close(l.done)
		conf := &packages.Config{Context: ctx, Mode: MetadataMode, Tests: cfg.Tests, BuildFlags: cfg.BuildFlags}
		l.roots, l.err = packages.Load(conf, patterns...)
	}()
	return l
}

func (l *listing) wait() ([]*packages.Package, error) {
	<-l.done
	l.stop()
	return l.roots, l.err
}

// cancel stops the go command, if still running, and waits for it.
func (l *listing) cancel() {
	l.stop()
	<-l.done
}

// listRun lists the program's packages (metadata only), unless early is that list already
// started, and computes the run's key; in is the go command's settings (newKeyInputs),
// inErr the error getting them. At the root of a module (root, see programOf), the stored
// metadata is taken instead when it still holds, and metadata listed is stored.
func listRun(cfg Inputs, in *keyInputs, inErr error, named map[string]bool, patterns []string, early *listing, root string) (*runKeys, error) {
	if early == nil {
		early = startList(cfg, patterns)
	}
	if inErr != nil {
		early.cancel()
		return nil, inErr
	}
	tool, err := toolKey(cfg.Cache)
	if err != nil {
		early.cancel()
		return nil, err
	}
	var metaKey cache.Key
	var roots []*packages.Package
	cached := false
	if root != "" {
		metaKey = metadataKey(cfg, in, tool, root)
		if roots, cached = cachedMetadata(cfg.Cache, metaKey, in); cached {
			early.cancel()
			if cfg.Verbose {
				log.Printf("cache: the stored metadata holds: no go list")
			}
		}
	}
	if !cached {
		if roots, err = early.wait(); err != nil {
			return nil, err
		}
		if root != "" {
			storeMetadata(cfg.Cache, metaKey, root, roots, in)
		}
	}
	own, source, err := in.packageKeys(roots)
	if err != nil {
		return nil, err
	}
	run, err := runKey(cfg, in, tool, roots, named, source)
	if err != nil {
		return nil, err
	}
	byID := map[string]cache.Key{}
	for p, k := range own {
		byID[p.ID] = k
	}
	return &runKeys{run: run, tool: tool, in: in, roots: roots, own: byID, metadataCached: cached}, nil
}

// noProgress shows nothing, for Inputs without a Progress.
type noProgress struct{}

func (noProgress) Phase(string) {}
func (noProgress) Clear()       {}

package driver

import (
	"context"
	"encoding/json"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/result"
)

// runFormat names the layout and meaning of a stored run: change it whenever result.Run
// or what the driver puts in it changes in a way this build's key would not tell.
const runFormat = "run/1"

// runCached is Run with a cache: the run's key is computed from the packages' metadata
// (one go list, or none when the stored metadata still holds: metadata.go; no parsing or
// type-checking), and on a hit the stored result is the run's.
// On a miss the program is loaded and analysed as without a cache, and the result stored
// when no package failed (a failure may come from outside the key: a module not yet
// downloaded, a network error). A cache that cannot be read or written only costs time.
func runCached(cfg Config, start time.Time, progress *progress) (*Output, error) {
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
	verbose := dbg(cfg.Debug, 'v')
	keys, keyErr := listRun(cfg, in, inErr, named, patterns, early, root)
	if keyErr != nil && verbose {
		log.Printf("cache: no key, analysing without the cache: %v", keyErr)
	}
	var st *pkgStore
	if keyErr == nil {
		if data, ok := cfg.Cache.Get(keys.run); ok {
			if run, err := decodeRun(data); err == nil {
				if verbose {
					log.Printf("cache: hit %s", keys.run)
				}
				run.Duration = time.Since(start)
				run.Cached = true
				return &Output{Run: run, metadataCached: keys.metadataCached}, nil
			}
		}
		if base, err := entryBase(cfg, keys.in, keys.tool); err == nil && cfg.Analyzer.ResultType == reflect.TypeFor[*analyzer.Result]() {
			st = newPkgStore(cfg, base, keys)
		}
	}
	if st != nil {
		out, ok, err := reuseRun(cfg, st, keys.roots, named, start, progress)
		if err != nil {
			return nil, err
		}
		if ok {
			storeRun(cfg.Cache, keys.run, out.Run, verbose)
			out.metadataCached = keys.metadataCached
			return out, nil
		}
	}
	progress.phase("loading " + strings.Join(cfg.Patterns, " "))
	pkgs, named, err := loadProgram(cfg, named, patterns)
	progress.clear()
	if err != nil {
		return nil, err
	}
	out, err := analyse(cfg, &Loaded{pkgs: pkgs, named: named}, start, progress, st)
	if err != nil || keyErr != nil {
		return out, err
	}
	if st != nil {
		st.putCount(keys.roots, out.Run.Packages)
	}
	storeRun(cfg.Cache, keys.run, out.Run, verbose)
	out.metadataCached = keys.metadataCached
	return out, nil
}

// storeRun stores a run's result under its key when no package failed (a failure may come
// from outside the key: a module not yet downloaded, a network error).
func storeRun(c *cache.Cache, key cache.Key, run *result.Run, verbose bool) {
	if len(run.Errors) > 0 {
		return
	}
	if data, err := encodeRun(run); err == nil {
		if err := c.Put(key, data); err != nil && verbose {
			log.Printf("cache: %v", err)
		}
		c.Trim()
	}
}

// runKeys are a run's key and what it was computed from.
type runKeys struct {
	run   cache.Key
	tool  cache.Key
	in    *keyInputs
	roots []*packages.Package  // the program's packages, metadata only
	own   map[string]cache.Key // every package's own key (ownKey), by ID
	// metadataCached tells that roots are stored metadata (metadata.go): no go list ran.
	metadataCached bool
}

// programOf is program, without listing the packages when the patterns are ./... at the
// root of the main module (no workspace): that names the whole program, and root is the
// module's directory. A run answered from the cache is then one go list, or none.
func programOf(cfg Config, in *keyInputs) (named map[string]bool, patterns []string, root string, err error) {
	if in != nil && whole(cfg) {
		wd, _ := os.Getwd()
		gomod, gowork := in.envVar("GOMOD"), in.envVar("GOWORK")
		if gomod != "" && gomod != os.DevNull && filepath.Dir(gomod) == wd && (gowork == "" || gowork == "off") {
			return nil, cfg.Patterns, wd, nil
		}
	}
	named, patterns, err = program(cfg)
	return named, patterns, "", err
}

// whole reports whether cfg's patterns are ./... for the program (the main module's
// packages, when the patterns are at its root).
func whole(cfg Config) bool {
	return !cfg.PatternsOnly && slices.Equal(cfg.Patterns, []string{"./..."})
}

// listing is a go list of the packages' metadata, running.
type listing struct {
	done  chan struct{}
	stop  context.CancelFunc
	roots []*packages.Package
	err   error
}

func startList(cfg Config, patterns []string) *listing {
	ctx, stop := context.WithCancel(context.Background())
	l := &listing{done: make(chan struct{}), stop: stop}
	go func() {
		defer close(l.done)
		conf := &packages.Config{Context: ctx, Mode: metadataMode, Tests: cfg.Tests, BuildFlags: cfg.BuildFlags}
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
func listRun(cfg Config, in *keyInputs, inErr error, named map[string]bool, patterns []string, early *listing, root string) (*runKeys, error) {
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
			if dbg(cfg.Debug, 'v') {
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

// toolKey identifies this build of idemlint: the hash of its executable. Hashing tens of
// megabytes on every run would cost more than the rest of a warm run, so the hash is kept
// in the cache under the executable's path, size and modification time.
func toolKey(c *cache.Cache) (cache.Key, error) {
	exe, err := os.Executable()
	if err != nil {
		return cache.Key{}, err
	}
	st, err := os.Stat(exe)
	if err != nil {
		return cache.Key{}, err
	}
	h := cache.NewHasher("executable")
	h.String("path", exe)
	h.String("stat", st.ModTime().UTC().Format(time.RFC3339Nano)+" "+st.Mode().String()+" "+strconv.FormatInt(st.Size(), 10))
	memo := h.Sum()
	var k cache.Key
	if data, ok := c.Get(memo); ok && len(data) == len(k) {
		copy(k[:], data)
		return k, nil
	}
	sum, err := hashFile(exe)
	if err != nil {
		return cache.Key{}, err
	}
	k = cache.Key(sum)
	c.Put(memo, k[:]) // a failure to write only means hashing again next time
	return k, nil
}

// encodeRun and decodeRun store a run as JSON, which keeps nil and empty lists apart (the
// JSON output prints them differently).
func encodeRun(run *result.Run) ([]byte, error) {
	stored := *run
	stored.Duration, stored.Cached, stored.Reused = 0, false, 0
	return json.Marshal(&stored)
}

func decodeRun(data []byte) (*result.Run, error) {
	var run result.Run
	if err := json.Unmarshal(data, &run); err != nil {
		return nil, err
	}
	// A handler's directives are the run's own, shared, as the converter made them.
	byPos := map[result.Position]*result.Directive{}
	for _, d := range run.Directives {
		byPos[d.Pos] = d
	}
	for _, h := range run.Handlers {
		for i, d := range h.Directives {
			if shared, ok := byPos[d.Pos]; ok {
				h.Directives[i] = shared
			}
		}
	}
	return &run, nil
}

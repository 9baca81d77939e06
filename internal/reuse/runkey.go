package reuse

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/result"
	"github.com/chokaq/idemlint/internal/schema"
)

// runFormat names the layout and meaning of a stored run: change it whenever result.Run
// or what the driver and the store put in it changes in a way this build's key would not tell.
const runFormat = "run/1"

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

// runKey hashes everything a run's result depends on: the format of what is stored, this
// build of idemlint, the go command's settings, where it runs (paths in the result are
// absolute and relative to the repository's root), what to load and how, the analyzer's
// settings and the model files they name, which packages are reported, and the key of
// every package of the program.
func runKey(cfg Inputs, in *keyInputs, tool cache.Key, roots []*packages.Package, named map[string]bool, keys map[*packages.Package]cache.Key) (cache.Key, error) {
	h := cache.NewHasher("run")
	h.String("driver format", runFormat)
	h.Key("tool", tool)
	h.String("runtime", runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
	h.String("go env", in.env)
	wd, _ := os.Getwd()
	h.String("wd", wd)
	h.String("root", cfg.Root)
	h.String("patterns", strings.Join(cfg.Patterns, "\x00"))
	h.String("load", fmt.Sprintf("tests=%v patterns-only=%v full-syntax=%v", cfg.Tests, cfg.PatternsOnly, cfg.FullSyntax))
	h.String("build flags", strings.Join(cfg.BuildFlags, "\x00"))
	h.String("disabled", strings.Join(cfg.Disabled, ","))
	if err := hashAnalyzer(h, cfg.Analyzer); err != nil {
		return cache.Key{}, err
	}
	var ids []string
	for id := range named {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	h.String("named", strings.Join(ids, "\x00"))
	sorted := slices.Clone(roots)
	slices.SortFunc(sorted, func(a, b *packages.Package) int { return strings.Compare(a.ID, b.ID) })
	for _, p := range sorted {
		h.String("root package", p.ID)
		h.Key("root key", keys[p])
	}
	return h.Sum(), nil
}

// hashAnalyzer adds the analyzer's settings (its flags) and the content of the model and
// schema files they name. The built-in models are part of idemlint's build, hashed with it.
func hashAnalyzer(h *cache.Hasher, a *analysis.Analyzer) error {
	h.String("analyzer", a.Name)
	var models, schemaFiles string
	a.Flags.VisitAll(func(f *flag.Flag) {
		h.String("flag "+f.Name, f.Value.String())
		switch f.Name {
		case "models":
			models = f.Value.String()
		case "schema":
			schemaFiles = f.Value.String()
		}
	})
	if err := hashSchema(h, schemaFiles); err != nil {
		return err
	}
	for _, m := range strings.Split(models, ",") {
		if m = strings.TrimSpace(m); m == "" {
			continue
		}
		sum, err := hashFile(m)
		if err != nil {
			return err
		}
		h.String("model file", m)
		h.Bytes("model content", sum[:])
	}
	return nil
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

// storeRun stores a run's result under its key when no package failed but for syntax and
// type errors in the sources, which the key covers (another failure may come from outside
// the key: a module not yet downloaded, a network error, an analysis that failed). A run
// with type errors is then answered from the cache next time, errors and all, instead of
// analysing everything again.
func storeRun(c *cache.Cache, key cache.Key, run *result.Run, verbose bool) {
	for _, e := range run.Errors {
		if !e.Load || !e.Source {
			return
		}
	}
	if data, err := encodeRun(run); err == nil {
		if err := c.Put(key, data); err != nil && verbose {
			log.Printf("cache: %v", err)
		}
		c.Trim()
	}
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
	// A handler's directives are the run's own, shared, as the joiner made them (pkgout.Joiner).
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

// hashSchema adds the files the -schema entries name now (a directory's or a glob's files
// change without the flag changing) and their content.
func hashSchema(h *cache.Hasher, entries string) error {
	var list []string
	for _, e := range strings.Split(entries, ",") {
		if e = strings.TrimSpace(e); e != "" {
			list = append(list, e)
		}
	}
	if len(list) == 0 {
		return nil
	}
	files, err := schema.Expand("", list)
	if err != nil {
		return err
	}
	for _, f := range files {
		sum, err := hashFile(f)
		if err != nil {
			return err
		}
		h.String("schema file", f)
		h.Bytes("schema content", sum[:])
	}
	return nil
}

package driver

import (
	"bytes"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"go/types"
	"log"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/frameworks"
	"github.com/chokaq/idemlint/internal/link"
)

// Per-package reuse. Besides the whole run's result (cached.go), a run with a cache stores,
// for every package and every view of the program it was analysed in (view), what its
// analysis gave: the facts it exported, its summary for the link, its retry settings, and
// its output. It also stores every package's types as export data. A later run whose key
// misses finds the packages whose entries are there; only the others, and the packages
// that import them, are parsed and type-checked (reuse.go: reuseRun), against the types of
// their dependencies read from the export data, and analysed; the unchanged packages export
// their stored facts, and their summaries and outputs join the run as if just made.

// entryFormat names the layout and meaning of a stored package entry and of the export
// data: change it whenever either changes in a way this build's key would not tell.
const entryFormat = "package/1"

// pkgEntry is what one package's analysis gave in one view of the program.
type pkgEntry struct {
	Facts    []storedFact          `json:"facts,omitempty"`
	Summary  *link.Summary         `json:"summary,omitempty"`
	Jobs     []frameworks.JobRetry `json:"jobs,omitempty"`
	Once     bool                  `json:"once,omitempty"`
	Handlers bool                  `json:"handlers,omitempty"`
	Output   *pkgOutput            `json:"output,omitempty"`
}

// storedFact is a fact in gob, on the object its objectpath names in the package (or on the
// package itself); Type indexes the analyzer's FactTypes.
type storedFact struct {
	Object objectpath.Path `json:"object,omitempty"`
	OfPkg  bool            `json:"pkg,omitempty"`
	Type   int             `json:"type"`
	Data   []byte          `json:"data"`
}

// outcome is the entry's part in the link.
func (e *pkgEntry) outcome(id, path string) *outcome {
	return &outcome{id: id, path: path, summary: e.Summary, jobs: e.Jobs, once: e.Once, handlers: e.Handlers}
}

// pkgStore reads and writes the package entries and export data of one run.
type pkgStore struct {
	c         *cache.Cache
	base      cache.Key            // what every entry depends on besides its package (entryBase)
	tool      cache.Key            // this build of idemlint, for the export data
	keys      map[string]cache.Key // package keys, by package ID
	factTypes []analysis.Fact
	root      string
	disabled  []string
	goarch    string // the target's, for the types' sizes

	mu      sync.Mutex
	first   map[string]*outcome // each package's outcome in the first round, by ID (view)
	written map[cache.Key]bool
}

func newPkgStore(cfg Config, base, tool cache.Key, keys map[string]cache.Key, goarch string) *pkgStore {
	return &pkgStore{c: cfg.Cache, base: base, tool: tool, keys: keys, factTypes: cfg.Analyzer.FactTypes, goarch: goarch,
		root: sourceRoot(), disabled: cfg.Disabled, first: map[string]*outcome{}, written: map[cache.Key]bool{}}
}

// entryBase hashes what every package entry depends on besides the package itself.
func entryBase(cfg Config, in *keyInputs, tool cache.Key) (cache.Key, error) {
	h := cache.NewHasher("package entry")
	h.String("format", entryFormat)
	h.Key("tool", tool)
	h.String("runtime", runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
	h.String("go env", in.env)
	h.String("root", sourceRoot())
	h.String("build flags", strings.Join(cfg.BuildFlags, "\x00"))
	h.String("disabled", strings.Join(cfg.Disabled, ","))
	if err := hashAnalyzer(h, cfg.Analyzer); err != nil {
		return cache.Key{}, err
	}
	return h.Sum(), nil
}

func (st *pkgStore) entryKey(id string, view cache.Key) cache.Key {
	h := cache.NewHasher("package view")
	h.Key("base", st.base)
	h.Key("package", st.keys[id])
	h.Key("view", view)
	return h.Sum()
}

func (st *pkgStore) exportKey(id string) cache.Key {
	h := cache.NewHasher("export data")
	h.String("format", entryFormat)
	h.Key("tool", st.tool)
	h.Key("package", st.keys[id])
	return h.Sum()
}

// view hashes what a package's analysis reads of the program in a round: nothing in the
// first; later, the links found for its own open calls, and for a package the analysis did
// not skip, the program's retry settings and the webhook checks others took over.
func view(first *outcome, p analyzer.Program, links link.Links) cache.Key {
	h := cache.NewHasher("view")
	if p.Jobs == nil {
		h.String("round", "first")
		return h.Sum()
	}
	h.String("round", "linked")
	if first == nil || first.summary == nil {
		return h.Sum()
	}
	for _, o := range first.summary.Open {
		for _, pos := range o.Pos {
			for _, l := range links[pos] {
				h.String("at", pos)
				h.String("runs", l.Name)
				data, _ := l.Fact.MarshalBinary()
				h.Bytes("fact", data)
			}
		}
	}
	jobs, _ := json.Marshal(p.Jobs)
	h.Bytes("jobs", jobs)
	var taken []string
	for name := range p.TakenOver {
		taken = append(taken, name)
	}
	slices.Sort(taken)
	h.String("taken over", strings.Join(taken, "\x00"))
	return h.Sum()
}

// get reads a package's entry for a view.
func (st *pkgStore) get(id string, v cache.Key) (*pkgEntry, bool) {
	k := st.entryKey(id, v)
	data, ok := st.c.Get(k)
	if !ok {
		return nil, false
	}
	var e pkgEntry
	if err := json.Unmarshal(data, &e); err != nil {
		st.c.Remove(k)
		return nil, false
	}
	return &e, true
}

// round stores what each action of a round's graph gave (a full run's analyzeProgram hook;
// reuseRun stores its analysed packages the same way).
func (st *pkgStore) round(graph *checker.Graph, rec *recorder, p analyzer.Program, links link.Links) {
	for act := range graph.All() {
		st.put(act, rec.result(act), p, links)
	}
}

// put stores one action's entry for the view of p and links.
func (st *pkgStore) put(act *checker.Action, res *analyzer.Result, p analyzer.Program, links link.Links) {
	o := outcomeOf(act.Package, res)
	if _, ok := st.keys[act.Package.ID]; o == nil || !ok {
		return
	}
	st.mu.Lock()
	if p.Jobs == nil {
		st.first[o.id] = o
	}
	first := st.first[o.id]
	st.mu.Unlock()
	k := st.entryKey(o.id, view(first, p, links))
	st.mu.Lock()
	done := st.written[k]
	st.written[k] = true
	st.mu.Unlock()
	if done {
		return
	}
	e := &pkgEntry{Summary: o.summary, Jobs: o.jobs, Once: o.once, Handlers: o.handlers}
	if len(act.Diagnostics) > 0 || len(res.Handlers)+len(res.Findings)+len(res.Directives) > 0 {
		e.Output = convertPackage(act.Package, act.Diagnostics, res, st.root, st.disabled)
	}
	facts, err := st.encodeFacts(act)
	if err != nil {
		return // stored without its facts, it would mislead: not stored, analysed next time
	}
	e.Facts = facts
	if data, err := json.Marshal(e); err == nil {
		st.c.Put(k, data)
	}
}

// encodeFacts writes the facts the action exported on its own package's objects.
func (st *pkgStore) encodeFacts(act *checker.Action) ([]storedFact, error) {
	var out []storedFact
	var enc objectpath.Encoder
	for _, f := range act.AllObjectFacts() {
		if f.Object.Pkg() != act.Package.Types {
			continue // inherited from a dependency
		}
		path, err := enc.For(f.Object)
		if err != nil {
			return nil, err
		}
		sf, err := st.encodeFact(f.Fact)
		if err != nil {
			return nil, err
		}
		sf.Object = path
		out = append(out, sf)
	}
	for _, f := range act.AllPackageFacts() {
		if f.Package != act.Package.Types {
			continue
		}
		sf, err := st.encodeFact(f.Fact)
		if err != nil {
			return nil, err
		}
		sf.OfPkg = true
		out = append(out, sf)
	}
	// AllObjectFacts is in no particular order; entries must not depend on it.
	slices.SortFunc(out, func(a, b storedFact) int {
		if c := strings.Compare(string(a.Object), string(b.Object)); c != 0 {
			return c
		}
		return a.Type - b.Type
	})
	return out, nil
}

func (st *pkgStore) encodeFact(f analysis.Fact) (storedFact, error) {
	i := slices.IndexFunc(st.factTypes, func(t analysis.Fact) bool { return reflect.TypeOf(t) == reflect.TypeOf(f) })
	if i < 0 {
		return storedFact{}, fmt.Errorf("fact type %T not the analyzer's", f)
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(f); err != nil {
		return storedFact{}, err
	}
	return storedFact{Type: i, Data: buf.Bytes()}, nil
}

// decodeFacts decodes an entry's facts against pkg, this run's types of the package (read
// from export data). ok is false when an object is not there: export data holds what the
// package's API reaches, and a fact on an unexported object out of its reach (a method of
// a type only an interface value carries) would be missing from the analysis of an
// importer that looks through every fact.
func (st *pkgStore) decodeFacts(e *pkgEntry, pkg *types.Package) (*analyzer.Restored, bool) {
	r := &analyzer.Restored{}
	for _, sf := range e.Facts {
		if sf.Type < 0 || sf.Type >= len(st.factTypes) {
			return nil, false
		}
		f := reflect.New(reflect.TypeOf(st.factTypes[sf.Type]).Elem()).Interface().(analysis.Fact)
		if err := gob.NewDecoder(bytes.NewReader(sf.Data)).Decode(f); err != nil {
			return nil, false
		}
		if sf.OfPkg {
			r.Packages = append(r.Packages, f)
			continue
		}
		obj, err := objectpath.Object(pkg, sf.Object)
		if err != nil {
			return nil, false
		}
		r.Objects = append(r.Objects, analysis.ObjectFact{Object: obj, Fact: f})
	}
	return r, true
}

// writeExports stores the export data of the packages that have none stored yet, on as
// many goroutines as there are CPUs.
func (st *pkgStore) writeExports(pkgs []*packages.Package) {
	work := make(chan *packages.Package)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range work {
				k := st.exportKey(p.ID)
				if st.c.Has(k) {
					continue
				}
				var buf bytes.Buffer
				if err := gcexportdata.Write(&buf, p.Fset, p.Types); err == nil {
					st.c.Put(k, buf.Bytes())
				}
			}
		})
	}
	for _, p := range pkgs {
		if _, ok := st.keys[p.ID]; ok && p.Types != nil && p.Types != types.Unsafe && !p.IllTyped {
			work <- p
		}
	}
	close(work)
	wg.Wait()
}

// countKey is the key under which a full run stores how many packages it analysed, for a
// program of these packages (the IDs go list gives without cgo preprocessing): the checker
// also counts what preprocessing adds (runtime/cgo, imported by every cgo package), which
// the metadata a reuse run has does not show.
func (st *pkgStore) countKey(all []*packages.Package) cache.Key {
	h := cache.NewHasher("package count")
	h.Key("base", st.base)
	ids := make([]string, len(all))
	for i, p := range all {
		ids[i] = p.ID
	}
	slices.Sort(ids)
	h.String("packages", strings.Join(ids, "\x00"))
	return h.Sum()
}

// putCount stores a full run's package count.
func (st *pkgStore) putCount(meta []*packages.Package, n int) {
	var all []*packages.Package
	packages.Visit(meta, nil, func(p *packages.Package) { all = append(all, p) })
	st.c.Put(st.countKey(all), []byte(strconv.Itoa(n)))
}

// count reads the package count a full run of these packages stored.
func (st *pkgStore) count(all []*packages.Package) (int, bool) {
	data, ok := st.c.Get(st.countKey(all))
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(string(data))
	return n, err == nil
}

// errNoReuse stops a reuse run that finds it cannot answer as a full run would.
var errNoReuse = errors.New("the cache cannot answer this run by package")

// noReuse logs why a run is not answered by package.
func noReuse(verbose bool, format string, args ...any) bool {
	if verbose {
		log.Printf("cache: analysing in full: "+format, args...)
	}
	return false
}

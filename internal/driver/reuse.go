package driver

import (
	"bytes"
	"encoding"
	"encoding/binary"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"go/types"
	"log"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
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
const entryFormat = "package/3"

// pkgEntry is what one package's analysis gave in one view of the program.
type pkgEntry struct {
	Facts    []storedFact          `json:"facts,omitempty"`
	Summary  *link.Summary         `json:"summary,omitempty"`
	Jobs     []frameworks.JobRetry `json:"jobs,omitempty"`
	Once     bool                  `json:"once,omitempty"`
	Handlers bool                  `json:"handlers,omitempty"`
	Output   *pkgOutput            `json:"output,omitempty"`
	Errors   bool                  `json:"errors,omitempty"` // the package had errors: see put
	Types    []byte                `json:"types,omitempty"`  // its types signature, when signed by its export data (signature.go)
}

// storedFact is a fact in its own encoding or else gob, on the object its objectpath names in the package (or on the
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
	c    *cache.Cache
	base cache.Key            // what every entry depends on besides its package (entryBase)
	tool cache.Key            // this build of idemlint, for the export data
	own  map[string]cache.Key // the packages' own keys (ownKey), by ID
	// meta holds the packages' metadata by ID, what a reuse run knows of them: the keys
	// are computed from its imports, not from those of the packages a full run loads,
	// where cgo preprocessing adds runtime/cgo.
	meta      map[string]*packages.Package
	factTypes []analysis.Fact
	root      string
	disabled  []string
	goarch    string // the target's, for the types' sizes
	analyzer  *analysis.Analyzer

	typeKeys *keyMap // by package ID (signature.go)
	typeSigs *keyMap

	mu      sync.Mutex
	first   map[string]*outcome // each package's outcome in the first round, by ID (view)
	written map[cache.Key]bool
	hidden  map[string][]*types.TypeName // by package ID, those its export data written this run reaches (hiddenTypes)
	read    map[cache.Key]*pkgEntry      // the entries get read (nil: none there)
	fixed   func(file string) bool       // a file of the module cache or GOROOT: it never changes
	// skipped tells the packages the analysis skips whole (the trimmer's rule): their
	// entries are empty, so they are not stored but known.
	skipped func(p *packages.Package) bool
	// want tells the packages whose export data to store besides those with facts (see
	// exporting; reuseRun: the packages it analyses).
	want func(p *packages.Package) bool
	trim *trimmer // the command's parsing rule (nil if the models do not load)
}

func newPkgStore(cfg Config, base cache.Key, keys *runKeys) *pkgStore {
	st := &pkgStore{c: cfg.Cache, base: base, tool: keys.tool, own: keys.own, factTypes: cfg.Analyzer.FactTypes, goarch: keys.in.goarch(),
		analyzer: cfg.Analyzer, root: sourceRoot(), disabled: cfg.Disabled, first: map[string]*outcome{}, typeKeys: newKeyMap(), typeSigs: newKeyMap(), written: map[cache.Key]bool{},
		hidden: map[string][]*types.TypeName{}, read: map[cache.Key]*pkgEntry{}, fixed: keys.in.immutable}
	st.meta = map[string]*packages.Package{}
	packages.Visit(keys.roots, nil, func(p *packages.Package) { st.meta[p.ID] = p })
	st.want = func(*packages.Package) bool { return false }
	st.skipped = func(*packages.Package) bool { return false }
	if skipped, err := analyzer.Skipped(cfg.Analyzer); err == nil {
		st.trim = &trimmer{skipped: skipped, modcache: keys.in.modcache, trimmed: map[string]bool{}}
		st.skipped = func(p *packages.Package) bool { return len(p.GoFiles) > 0 && st.trim.unread(p.GoFiles[0]) }
	}
	return st
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
			for _, l := range links[link.At{Package: first.id, Pos: pos}] {
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

// get reads a package's entry of key k (entryKey). A package the analysis skips has an
// empty one unless one is stored (put stores only what is not empty). An entry read is
// kept: rounds of the link read the same ones again.
func (st *pkgStore) get(p *packages.Package, k cache.Key) (*pkgEntry, bool) {
	st.mu.Lock()
	e, seen := st.read[k]
	st.mu.Unlock()
	if seen {
		return e, e != nil
	}
	e = st.readEntry(p, k)
	st.mu.Lock()
	st.read[k] = e
	st.mu.Unlock()
	return e, e != nil
}

// prefetch reads the entries of pkgs, of the keys given, on every CPU (get keeps them).
func (st *pkgStore) prefetch(pkgs []*packages.Package, key func(*packages.Package) cache.Key) {
	work := make(chan *packages.Package)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for p := range work {
				st.get(p, key(p))
			}
		})
	}
	for _, p := range pkgs {
		work <- p
	}
	close(work)
	wg.Wait()
}

func (st *pkgStore) readEntry(p *packages.Package, k cache.Key) *pkgEntry {
	data, ok := st.c.Get(k)
	if !ok && st.skipped(p) {
		return &pkgEntry{}
	}
	if !ok {
		return nil
	}
	var e pkgEntry
	if err := json.Unmarshal(data, &e); err != nil {
		st.c.Remove(k)
		return nil
	}
	return &e
}

// hook returns what a round of the program's analysis with p and links does with each
// package's analysis: sign it in rs, store its entry for the round's view, and its export
// data.
func (st *pkgStore) hook(p analyzer.Program, links link.Links, rs *roundSigs) func(passRecord, *outcome) {
	return func(pr passRecord, o *outcome) {
		if !pr.restored {
			st.put(pr, o, p, links, rs)
		}
	}
}

// put signs one package's analysis in the round's rs, and stores its entry for the view of
// p and links, and its export data. A package whose analysis failed, or gave facts that
// cannot be encoded, gets no signature: its importers' entries are not stored either.
func (st *pkgStore) put(pr passRecord, o *outcome, p analyzer.Program, links link.Links, rs *roundSigs) {
	pkg, res := pr.pkg, pr.res
	meta := st.meta[pkg.ID]
	if o == nil || meta == nil {
		return
	}
	withErrors := pkg.IllTyped || len(pkg.Errors) > 0
	if withErrors {
		o, res = &outcome{id: o.id, path: o.path}, nil // stored only as a package with errors
	}
	st.mu.Lock()
	if p.Jobs == nil {
		st.first[o.id] = o
	}
	first := st.first[o.id]
	st.mu.Unlock()
	k, ok := st.entryKey(meta, rs, view(first, p, links))
	if !ok {
		return
	}
	e := &pkgEntry{Summary: o.summary, Jobs: o.jobs, Once: o.once, Handlers: o.handlers}
	if res == nil {
		// Its errors are part of the run, and a reuse run reports only those of what it
		// type-checks: it runs in full instead (reuseRun). It has no signature.
		e.Errors = true
		if st.claim(k) {
			st.write(k, e)
		}
		return
	}
	facts, err := st.encodeFacts(pr)
	if err != nil {
		return // stored without its facts, it would mislead: not stored, analysed next time
	}
	typeSig, ok := st.signTypes(pkg, meta)
	if !ok {
		return
	}
	sig, ok := factSig(meta, typeSig, facts, rs)
	if !ok {
		return
	}
	rs.set(pkg.ID, sig)
	st.export(pr, meta)
	if st.skipped(pkg) && o.summary == nil && !o.handlers && len(o.jobs) == 0 && len(pr.diags) == 0 && len(facts) == 0 {
		return // get knows it empty
	}
	if !st.claim(k) {
		return
	}
	if len(pr.diags) > 0 || len(res.Handlers)+len(res.Findings)+len(res.Directives) > 0 {
		e.Output = convertPackage(pkg, pr.diags, res, st.root, st.disabled)
	}
	e.Facts = facts
	if st.signedByTypes(meta) {
		e.Types = typeSig[:]
	}
	st.write(k, e)
}

// setFirst keeps a package's outcome in the first round (view reads it in later rounds).
func (st *pkgStore) setFirst(o *outcome) {
	st.mu.Lock()
	st.first[o.id] = o
	st.mu.Unlock()
}

// firstOf is a package's outcome in the first round (nil when not known).
func (st *pkgStore) firstOf(id string) *outcome {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.first[id]
}

// claim reports whether the entry of key k is yet to be written this run: a later round of
// the same view would write the same.
func (st *pkgStore) claim(k cache.Key) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	done := st.written[k]
	st.written[k] = true
	return !done
}

func (st *pkgStore) write(k cache.Key, e *pkgEntry) {
	if data, err := json.Marshal(e); err == nil {
		st.c.Put(k, data)
	}
}

// export stores a package's export data once a run (again when a later round's facts
// reach more hidden types), when a later run may read it (want, a package signed by its
// types, or facts on its objects, which a later run decodes against it) and no earlier run
// stored it whole. meta is its metadata.
func (st *pkgStore) export(pr passRecord, meta *packages.Package) {
	pkg := pr.pkg
	signed := st.signedByTypes(meta)
	if pkg.Types == types.Unsafe || pkg.IllTyped || (!st.want(pkg) && !signed && len(pr.facts) == 0) {
		return
	}
	k, ok := st.exportKey(meta)
	if !ok {
		return
	}
	hidden := hiddenTypes(pkg.Types, pr.facts, signed)
	st.mu.Lock()
	prev, again := st.hidden[pkg.ID]
	grown := slices.ContainsFunc(hidden, func(tn *types.TypeName) bool { return !slices.Contains(prev, tn) })
	if again && !grown {
		st.mu.Unlock()
		return
	}
	st.hidden[pkg.ID] = hidden
	st.mu.Unlock()
	if !again {
		if data, ok := st.c.Get(k); ok && len(data) > 0 {
			return // written by an earlier run, whole (Get checks the sum)
		}
	}
	if data, err := exportData(pkg, hidden); err == nil {
		st.c.Put(k, data)
	}
}

// encodeFacts writes the facts a package's analysis exported.
func (st *pkgStore) encodeFacts(pr passRecord) ([]storedFact, error) {
	var out []storedFact
	var enc objectpath.Encoder
	for _, f := range pr.facts {
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
	for _, f := range pr.pkgFacts {
		sf, err := st.encodeFact(f)
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
	// A fact that encodes itself (effect.Fact) is stored so; gob would add a description of
	// its type to each.
	if m, ok := f.(encoding.BinaryMarshaler); ok {
		data, err := m.MarshalBinary()
		return storedFact{Type: i, Data: data}, err
	}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(f); err != nil {
		return storedFact{}, err
	}
	return storedFact{Type: i, Data: buf.Bytes()}, nil
}

// decodeFact is encodeFact's inverse.
func (st *pkgStore) decodeFact(sf storedFact) (analysis.Fact, error) {
	if sf.Type < 0 || sf.Type >= len(st.factTypes) {
		return nil, fmt.Errorf("fact type %d", sf.Type)
	}
	f := reflect.New(reflect.TypeOf(st.factTypes[sf.Type]).Elem()).Interface().(analysis.Fact)
	if u, ok := f.(encoding.BinaryUnmarshaler); ok {
		return f, u.UnmarshalBinary(sf.Data)
	}
	return f, gob.NewDecoder(bytes.NewReader(sf.Data)).Decode(f)
}

// decodeFacts decodes an entry's facts against pkg, this run's types of the package (read
// from export data). ok is false when an object is not there: export data holds what the
// package's API reaches, and a fact on an unexported object out of its reach (a method of
// a type only an interface value carries) would be missing from the analysis of an
// importer that looks through every fact.
func (st *pkgStore) decodeFacts(e *pkgEntry, pkg *types.Package) (*analyzer.Restored, bool) {
	r := &analyzer.Restored{}
	for _, sf := range e.Facts {
		f, err := st.decodeFact(sf)
		if err != nil {
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

// hiddenTypes returns the package's unexported types that its export data must reach
// besides its API: an importer looks for the implementations of its interfaces among the
// facts on their methods, and for the types that embed one (a method an embedder promotes
// implements an interface the embedded type alone does not: go-zero's custom models around
// their default ones) in the package's scope. Export data holds what the API reaches, and
// such a type is often out of its reach (a store constructed by an exported New that
// returns an interface). The export data is written with a second part that reaches them
// (exportData). For a package of the files that can change (all), that is every unexported
// type but the generic ones (a variable cannot hold them uninstantiated), so that its
// export data is the same whatever the facts of the round or run; for another (a library's
// package, which can have a great many), the types whose methods carry facts and the
// struct types that embed one.
func hiddenTypes(pkg *types.Package, facts []analysis.ObjectFact, all bool) []*types.TypeName {
	receivers := map[*types.TypeName]bool{} // the types whose methods carry facts
	for _, f := range facts {
		fn, ok := f.Object.(*types.Func)
		if !ok || fn.Pkg() != pkg || fn.Signature().Recv() == nil {
			continue
		}
		if n := namedOf(fn.Signature().Recv().Type()); n != nil {
			receivers[n.Obj()] = true
		}
	}
	var out []*types.TypeName
	scope := pkg.Scope()
	for _, name := range scope.Names() { // sorted
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.Exported() || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || n.TypeParams().Len() > 0 {
			continue
		}
		if all || receivers[tn] || embedsOne(n, receivers) {
			out = append(out, tn)
		}
	}
	return out
}

// embedsOne reports whether n is a struct type that embeds one of set.
func embedsOne(n *types.Named, set map[*types.TypeName]bool) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		if inner := namedOf(f.Type()); f.Embedded() && inner != nil && set[inner.Obj()] {
			return true
		}
	}
	return false
}

// namedOf is the named type t is, or points to (nil if neither).
func namedOf(t types.Type) *types.Named {
	t = types.Unalias(t)
	if p, ok := t.(*types.Pointer); ok {
		t = types.Unalias(p.Elem())
	}
	n, _ := t.(*types.Named)
	return n
}

// exportData writes a package's types: its export data and, when it has hidden types
// (hiddenTypes), the export data of a package made up to reach them (a variable of each),
// whose reading declares them in the package (gcexportdata.Read declares the objects of
// other packages that a package's data refers to, and pkg is complete by then).
func exportData(pkg *packages.Package, hidden []*types.TypeName) ([]byte, error) {
	var main, reach bytes.Buffer
	if err := gcexportdata.Write(&main, pkg.Fset, pkg.Types); err != nil {
		return nil, err
	}
	if len(hidden) > 0 {
		synth := types.NewPackage(reachPath(pkg.PkgPath), "reach")
		for i, tn := range hidden {
			synth.Scope().Insert(types.NewVar(token.NoPos, synth, "V"+strconv.Itoa(i), tn.Type()))
		}
		synth.SetImports([]*types.Package{pkg.Types})
		synth.MarkComplete()
		if err := gcexportdata.Write(&reach, pkg.Fset, synth); err != nil {
			return nil, err
		}
	}
	out := binary.AppendUvarint(nil, uint64(main.Len()))
	out = append(out, main.Bytes()...)
	return append(out, reach.Bytes()...), nil
}

// readExportData reads what exportData wrote into n.Types, against the types of n's
// dependencies.
func readExportData(data []byte, fset *token.FileSet, n *packages.Package) (*types.Package, error) {
	size, k := binary.Uvarint(data)
	if k <= 0 || uint64(len(data)-k) < size {
		return nil, errors.New("export data: bad length")
	}
	main, reach := data[k:k+int(size)], data[k+int(size):]
	imports := importsOf(n)
	pkg, err := gcexportdata.Read(bytes.NewReader(main), fset, imports, n.PkgPath)
	if err != nil || len(reach) == 0 {
		return pkg, err
	}
	imports[n.PkgPath] = pkg
	if _, err := gcexportdata.Read(bytes.NewReader(reach), fset, imports, reachPath(n.PkgPath)); err != nil {
		return nil, err
	}
	return pkg, nil
}

// reachPath is the path of the package exportData makes up for pkgPath: no import path
// has a space.
func reachPath(pkgPath string) string { return pkgPath + " (idemlint reach)" }

// exporting selects the packages whose export data a later run may need besides those with
// facts on their objects (export stores these too): the packages of files that can change
// (the main module, replaced and workspace modules: the only ones a later run can find
// changed) and every package they import directly (what their type-checking reads), and
// the packages the models name (what model resolution looks up). A package reached only
// through these is made empty in a later run: what of it their APIs mention is declared in
// it as their export data is read.
func (st *pkgStore) exporting(pkgs []*packages.Package) {
	want := map[string]bool{}
	var dirs []string
	var mutable []*packages.Package
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if slices.ContainsFunc(p.GoFiles, func(f string) bool { return !st.fixed(f) }) {
			mutable = append(mutable, p)
			dirs = append(dirs, filepath.Dir(p.GoFiles[0]))
		}
	})
	modelled, err := analyzer.Modelled(st.analyzer, dirs)
	for _, p := range mutable {
		want[p.ID] = true
		for _, imp := range p.Imports {
			want[imp.ID] = true
		}
	}
	st.want = func(p *packages.Package) bool { return want[p.ID] || err != nil || modelled(p.PkgPath) }
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

package reuse

import (
	"encoding/json"
	"go/types"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
	"github.com/chokaq/idemlint/internal/cache"
	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/frameworks"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/pkgout"
	"github.com/chokaq/idemlint/internal/rounds"
)

// Per-package reuse. Besides the whole run's result (runkey.go), a run with a cache stores,
// for every package and every view of the program it was analysed in (viewKey), what its
// analysis gave: the facts it exported, its summary for the link, its retry settings, and
// its output. It also stores every package's types as export data (exportdata.go). A later
// run whose key misses finds the packages whose entries are there; only the others, and the
// packages that import them, are parsed and type-checked (incremental.go: reuseRun), against
// the types of their dependencies read from the export data, and analysed; the unchanged
// packages export their stored facts, and their summaries and outputs join the run as if
// just made.

// pkgEntry is what one package's analysis gave in one view of the program.
type pkgEntry struct {
	Facts    []storedFact          `json:"facts,omitempty"`
	Summary  *link.Summary         `json:"summary,omitempty"`
	Jobs     []frameworks.JobRetry `json:"jobs,omitempty"`
	Once     bool                  `json:"once,omitempty"`
	Handlers bool                  `json:"handlers,omitempty"`
	Output   *pkgout.Output        `json:"output,omitempty"`
	Errors   bool                  `json:"errors,omitempty"` // the package had errors: see put
	Types    []byte                `json:"types,omitempty"`  // its types signature, when signed by its export data (signature.go)
}

// outcome is the entry's part in the link.
func (e *pkgEntry) outcome(id, path string) *rounds.Outcome {
	return &rounds.Outcome{ID: id, Path: path, Summary: e.Summary, Jobs: e.Jobs, Once: e.Once, Handlers: e.Handlers}
}

// pkgStore reads and writes the package entries and export data of one run.
type pkgStore struct {
	c *cache.Cache
	signer
	// meta holds the packages' metadata by ID, what a reuse run knows of them: the keys
	// are computed from its imports, not from those of the packages a full run loads,
	// where cgo preprocessing adds runtime/cgo.
	meta     map[string]*packages.Package
	facts    factCodec
	root     string
	disabled []string
	goarch   string // the target's, for the types' sizes
	analyzer *analysis.Analyzer

	mu      sync.Mutex
	first   map[string]*rounds.Outcome // each package's outcome in the first round, by ID (viewKey)
	written map[cache.Key]bool
	hidden  map[string][]*types.TypeName // by package ID, those its export data written this run reaches (hiddenTypes)
	read    map[cache.Key]*pkgEntry      // the entries get read (nil: none there)
	// want tells the packages whose export data to store besides those with facts (see
	// exporting; reuseRun: the packages it analyses).
	want func(p *packages.Package) bool
	trim Parser // the driver's parsing rule (nil if the models do not load)
}

// newPkgStore returns the store of the run whose keys are keys; base is entryBase's.
func newPkgStore(cfg Inputs, base cache.Key, keys *runKeys) *pkgStore {
	st := &pkgStore{c: cfg.Cache, facts: factCodec{cfg.Analyzer.FactTypes}, goarch: keys.in.goarch(), analyzer: cfg.Analyzer, root: cfg.Root,
		disabled: cfg.Disabled, first: map[string]*rounds.Outcome{}, written: map[cache.Key]bool{}, hidden: map[string][]*types.TypeName{},
		read: map[cache.Key]*pkgEntry{}}
	st.signer = signer{base: base, tool: keys.tool, own: keys.own, typeKeys: newKeyMap(), typeSigs: newKeyMap(), fixed: keys.in.immutable}
	st.meta = map[string]*packages.Package{}
	packages.Visit(keys.roots, nil, func(p *packages.Package) { st.meta[p.ID] = p })
	st.want = func(*packages.Package) bool { return false }
	st.skipped = func(*packages.Package) bool { return false }
	if cfg.Parser != nil {
		st.trim = cfg.Parser(keys.in.modcache)
	}
	if st.trim != nil {
		st.skipped = func(p *packages.Package) bool { return len(p.GoFiles) > 0 && st.trim.Unread(p.GoFiles[0]) }
	}
	return st
}

// entryBase hashes what every package entry depends on besides the package itself.
func entryBase(cfg Inputs, in *keyInputs, tool cache.Key) (cache.Key, error) {
	h := cache.NewHasher("package entry")
	h.String("format", entryFormat)
	h.Key("tool", tool)
	h.String("runtime", runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
	h.String("go env", in.env)
	h.String("root", cfg.Root)
	h.String("build flags", strings.Join(cfg.BuildFlags, "\x00"))
	h.String("disabled", strings.Join(cfg.Disabled, ","))
	if err := hashAnalyzer(h, cfg.Analyzer); err != nil {
		return cache.Key{}, err
	}
	return h.Sum(), nil
}

// viewKey hashes what a package's analysis reads of the program in a round: nothing in the
// first; later, the links found for its own open calls, and for a package the analysis did
// not skip, the program's retry settings, the webhook checks others took over, and the
// routes the program serves.
func viewKey(first *rounds.Outcome, p analyzer.Program, links link.Links) cache.Key {
	h := cache.NewHasher("view")
	if p.Jobs == nil {
		h.String("round", "first")
		return h.Sum()
	}
	h.String("round", "linked")
	if first == nil || first.Summary == nil {
		return h.Sum()
	}
	for _, o := range first.Summary.Open {
		for _, pos := range o.Pos {
			for _, l := range links[link.At{Package: first.ID, Pos: pos}] {
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
	hashRegistered(h, first, p.Registered)
	if len(p.Routes) > 0 {
		served, _ := json.Marshal(p.Routes)
		h.Bytes("routes", served)
	}
	if len(p.Consumers) > 0 {
		consumers, _ := json.Marshal(p.Consumers)
		h.Bytes("consumers", consumers)
	}
	if len(p.Carriers) > 0 {
		carriers, _ := json.Marshal(p.Carriers)
		h.Bytes("carriers", carriers)
	}
	return h.Sum()
}

// hashRegistered hashes what a package reads of the program's handlers registered
// elsewhere (analyzer.Program.Registered): the registrations of its own functions, which
// it then judges as its handlers, and which of the functions it registers the program
// hands to their own packages, which it then leaves out.
func hashRegistered(h *cache.Hasher, first *rounds.Outcome, registered map[string][]callgraph.Registration) {
	var own []string
	for fn, regs := range registered {
		if regs[0].Pkg == first.Path {
			own = append(own, fn)
		}
	}
	slices.Sort(own)
	for _, fn := range own {
		data, _ := json.Marshal(registered[fn])
		h.String("registered", fn)
		h.Bytes("at", data)
	}
	for _, r := range first.Summary.Registered {
		if registered[r.Func] != nil {
			h.String("handed over", r.Func)
		}
	}
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
func (st *pkgStore) hook(p analyzer.Program, links link.Links, rs *roundSigs) func(rounds.PassRecord, *rounds.Outcome) {
	return func(pr rounds.PassRecord, o *rounds.Outcome) {
		if !pr.Restored {
			st.put(pr, o, p, links, rs)
		}
	}
}

// put signs one package's analysis in the round's rs, and stores its entry for the view of
// p and links, and its export data. A package whose analysis failed, or gave facts that
// cannot be encoded, gets no signature: its importers' entries are not stored either.
func (st *pkgStore) put(pr rounds.PassRecord, o *rounds.Outcome, p analyzer.Program, links link.Links, rs *roundSigs) {
	pkg, res := pr.Pkg, pr.Res
	meta := st.meta[pkg.ID]
	if o == nil || meta == nil {
		return
	}
	withErrors := pkg.IllTyped || len(pkg.Errors) > 0
	if withErrors {
		o, res = &rounds.Outcome{ID: o.ID, Path: o.Path}, nil // stored only as a package with errors
	}
	st.mu.Lock()
	if p.Jobs == nil {
		st.first[o.ID] = o
	}
	first := st.first[o.ID]
	st.mu.Unlock()
	k, ok := st.entryKey(meta, rs, viewKey(first, p, links))
	if !ok {
		return
	}
	e := &pkgEntry{Summary: o.Summary, Jobs: o.Jobs, Once: o.Once, Handlers: o.Handlers}
	if res == nil {
		// Its errors are part of the run, and a reuse run reports only those of what it
		// type-checks: it runs in full instead (reuseRun). It has no signature.
		e.Errors = true
		if st.claim(k) {
			st.write(k, e)
		}
		return
	}
	facts, err := st.facts.encodeFacts(pr)
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
	if st.skipped(pkg) && o.Summary == nil && !o.Handlers && len(o.Jobs) == 0 && len(pr.Diags) == 0 && len(facts) == 0 {
		return // get knows it empty
	}
	if !st.claim(k) {
		return
	}
	if len(pr.Diags) > 0 || len(res.Handlers)+len(res.Findings)+len(res.Directives) > 0 {
		e.Output = pkgout.Convert(pkg, pr.Diags, res, st.root, st.disabled)
	}
	e.Facts = facts
	if st.signedByTypes(meta) {
		e.Types = typeSig[:]
	}
	st.write(k, e)
}

// setFirst keeps a package's outcome in the first round (viewKey reads it in later rounds).
func (st *pkgStore) setFirst(o *rounds.Outcome) {
	st.mu.Lock()
	st.first[o.ID] = o
	st.mu.Unlock()
}

// firstOf is a package's outcome in the first round (nil when not known).
func (st *pkgStore) firstOf(id string) *rounds.Outcome {
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
func (st *pkgStore) export(pr rounds.PassRecord, meta *packages.Package) {
	pkg := pr.Pkg
	signed := st.signedByTypes(meta)
	if pkg.Types == types.Unsafe || pkg.IllTyped || (!st.want(pkg) && !signed && len(pr.Facts) == 0) {
		return
	}
	k, ok := st.exportKey(meta)
	if !ok {
		return
	}
	hidden := hiddenTypes(pkg.Types, pr.Facts, signed)
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

package reuse

import (
	"go/token"
	"go/types"
	"strconv"
	"sync"

	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/internal/cache"
)

// Early cut-off. A package's entries and export data are keyed by what its analysis reads
// of its dependencies, not by their sources, as the go command keys a compilation by its
// imports' export data: an edit that leaves a package's declarations and facts as they were
// (a change inside a function body that moves no declaration and no line the facts name)
// leaves the keys of its importers as they were, and their entries are reused.
//
// Three signatures stand for what a package gives its importers:
//   - its types key (typeKey): its own key and its imports' types signatures; the key of
//     its export data;
//   - its types signature: for a package of a file that can change (signedByTypes), the
//     hash of its own declarations (apiSignature), else its types key (its files never
//     change, so its types change only with its dependencies');
//   - its facts signature in a round (factSig): its types signature, the facts its
//     analysis exported in the round, and its imports' facts signatures (an importer reads
//     the facts of every package below it).
//
// A package's entry for a round is keyed by its own key, its imports' facts signatures in
// the round and its view (entryKey).

// keyMap holds keys by package ID, for the passes that run in parallel.
type keyMap struct {
	mu   sync.Mutex
	keys map[string]cache.Key
}

func newKeyMap() *keyMap { return &keyMap{keys: map[string]cache.Key{}} }

func (m *keyMap) get(id string) (cache.Key, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, ok := m.keys[id]
	return k, ok
}

func (m *keyMap) set(id string, k cache.Key) {
	m.mu.Lock()
	m.keys[id] = k
	m.mu.Unlock()
}

// entryFormat names the layout and meaning of a stored package entry and of the export
// data: change it whenever either changes in a way this build's key would not tell.
const entryFormat = "package/3"

// roundSigs are the facts signatures of one round's packages: a package's is set once its
// analysis in the round is done or its entry read. A package missing has none (its
// analysis failed, or gave what cannot be stored): its importers' entries cannot be keyed.
type roundSigs = keyMap

func newRoundSigs() *roundSigs { return newKeyMap() }

// signer computes the keys and signatures of one run's packages.
type signer struct {
	base cache.Key            // what every entry depends on besides its package (entryBase)
	tool cache.Key            // this build of idemlint, for the export data
	own  map[string]cache.Key // the packages' own keys (ownKey), by ID

	typeKeys *keyMap // by package ID
	typeSigs *keyMap

	fixed func(file string) bool // a file of the module cache or GOROOT: it never changes
	// skipped tells the packages the analysis skips whole (the driver's parsing rule): their
	// entries are empty, so they are not stored but known.
	skipped func(p *packages.Package) bool
}

// signedByTypes reports whether a package's types signature is the hash of its declarations:
// a package with a file that can change, which the analysis does not skip (a skipped
// package stores no entry to keep the signature in).
func (st *signer) signedByTypes(p *packages.Package) bool {
	if p.PkgPath == "unsafe" || st.skipped(p) {
		return false
	}
	for _, f := range p.GoFiles {
		if !st.fixed(f) {
			return true
		}
	}
	return false
}

// typeKey is a package's types key; ok is false when an import's types signature is not
// known (its analysis failed).
func (st *signer) typeKey(p *packages.Package) (cache.Key, bool) {
	if k, ok := st.typeKeys.get(p.ID); ok {
		return k, true
	}
	own, ok := st.own[p.ID]
	if !ok {
		return cache.Key{}, false
	}
	h := cache.NewHasher("types")
	h.String("format", entryFormat)
	h.Key("tool", st.tool)
	h.Key("own", own)
	if !hashImports(h, p, "types", st.typeSigs) {
		return cache.Key{}, false
	}
	k := h.Sum()
	st.typeKeys.set(p.ID, k)
	return k, true
}

// signTypes computes the types signature of a package just analysed (meta is its
// metadata), once a run. ok is false for a package with errors or an import without a
// signature.
func (st *signer) signTypes(pkg, meta *packages.Package) (cache.Key, bool) {
	if sig, ok := st.typeSigs.get(pkg.ID); ok {
		return sig, true
	}
	if pkg.IllTyped || len(pkg.Errors) > 0 {
		return cache.Key{}, false
	}
	sig, ok := st.typeKey(meta)
	if !ok {
		return cache.Key{}, false
	}
	if st.signedByTypes(meta) {
		sig = apiSignature(pkg.Fset, pkg.Types)
	}
	st.typeSigs.set(pkg.ID, sig)
	return sig, true
}

// apiSignature hashes what importers can read of a package's own declarations: every
// package-level object with its type, constant value, methods, and the places of it, its
// methods, fields and parameters. Not its export data: that also holds the declarations
// of what its API mentions from its dependencies, and their places lose their columns when
// the dependencies' types are read from export data, so the same package would sign
// differently in a full run and in a reuse run. What it holds of its dependencies is
// signed by their own signatures (an importer's key has them all: factSig).
func apiSignature(fset *token.FileSet, pkg *types.Package) cache.Key {
	h := cache.NewHasher("package api")
	h.String("package", pkg.Path()+" "+pkg.Name())
	qual := func(p *types.Package) string { return p.Path() }
	at := func(p token.Pos) string { return fset.Position(p).String() }
	// walk adds the places of the fields, parameters and interface methods of a type
	// written in the package; a named type is declared, and signed, on its own.
	var walk func(t types.Type)
	walk = func(t types.Type) {
		switch t := t.(type) {
		case *types.Struct:
			for f := range t.Fields() {
				h.String("field", f.Name()+" "+at(f.Pos()))
				walk(f.Type())
			}
		case *types.Signature:
			for _, tuple := range []*types.Tuple{t.Params(), t.Results()} {
				for v := range tuple.Variables() {
					h.String("parameter", v.Name()+" "+at(v.Pos()))
					walk(v.Type())
				}
			}
		case *types.Interface:
			for m := range t.ExplicitMethods() {
				h.String("interface method", m.Name()+" "+at(m.Pos()))
				walk(m.Type())
			}
		case *types.Pointer:
			walk(t.Elem())
		case *types.Slice:
			walk(t.Elem())
		case *types.Array:
			walk(t.Elem())
		case *types.Map:
			walk(t.Key())
			walk(t.Elem())
		case *types.Chan:
			walk(t.Elem())
		}
	}
	for _, name := range pkg.Scope().Names() {
		obj := pkg.Scope().Lookup(name)
		h.String("object", types.ObjectString(obj, qual)+" "+at(obj.Pos()))
		switch obj := obj.(type) {
		case *types.Const:
			h.String("value", obj.Val().ExactString())
		case *types.TypeName:
			if n, ok := obj.Type().(*types.Named); ok && !obj.IsAlias() {
				walk(n.Underlying())
				for m := range n.Methods() {
					h.String("method", types.ObjectString(m, qual)+" "+at(m.Pos()))
					walk(m.Type())
				}
			}
		default:
			walk(obj.Type())
		}
	}
	return h.Sum()
}

// storedTypeSig is the types signature of a package whose entry was read: the entry's
// (stored) for a package signed by its types (ok is false when the entry has none), else its
// types key.
func (st *signer) storedTypeSig(p *packages.Package, stored []byte) (cache.Key, bool) {
	if sig, ok := st.typeSigs.get(p.ID); ok {
		return sig, true
	}
	var sig cache.Key
	if st.signedByTypes(p) {
		if len(stored) != len(sig) {
			return cache.Key{}, false
		}
		copy(sig[:], stored)
	} else {
		tk, ok := st.typeKey(p)
		if !ok {
			return cache.Key{}, false
		}
		sig = tk
	}
	st.typeSigs.set(p.ID, sig)
	return sig, true
}

// factSig is a package's facts signature in a round, from its types signature and the
// facts it exported (as stored); ok is false when an import has none.
func factSig(p *packages.Package, typeSig cache.Key, facts []storedFact, rs *roundSigs) (cache.Key, bool) {
	h := cache.NewHasher("facts")
	h.Key("types", typeSig)
	for _, f := range facts {
		h.String("object", string(f.Object))
		h.String("kind", strconv.FormatBool(f.OfPkg)+" "+strconv.Itoa(f.Type))
		h.Bytes("data", f.Data)
	}
	if !hashImports(h, p, "facts", rs) {
		return cache.Key{}, false
	}
	return h.Sum(), true
}

// entryKey is the key of a package's entry for a round's view; ok is false when an import
// has no facts signature in the round.
func (st *signer) entryKey(p *packages.Package, rs *roundSigs, view cache.Key) (cache.Key, bool) {
	own, ok := st.own[p.ID]
	if !ok {
		return cache.Key{}, false
	}
	h := cache.NewHasher("package view")
	h.Key("base", st.base)
	h.Key("own", own)
	if !hashImports(h, p, "facts", rs) {
		return cache.Key{}, false
	}
	h.Key("view", view)
	return h.Sum(), true
}

// hashImports adds the signature in sigs of each of p's imports, in the order of their
// paths; false when one has none.
func hashImports(h *cache.Hasher, p *packages.Package, what string, sigs *keyMap) bool {
	for _, path := range importPaths(p) {
		sig, ok := sigs.get(p.Imports[path].ID)
		if !ok {
			return false
		}
		h.String("import", path)
		h.Key(what, sig)
	}
	return true
}

// exportKey is the key of a package's export data; ok as for typeKey.
func (st *signer) exportKey(p *packages.Package) (cache.Key, bool) {
	tk, ok := st.typeKey(p)
	if !ok {
		return cache.Key{}, false
	}
	h := cache.NewHasher("export data")
	h.Key("types", tk)
	return h.Sum(), true
}

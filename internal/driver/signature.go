package driver

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
// imports' export data: an edit that leaves a package's export data and facts as they were
// (a change inside a function body that moves no line the facts or the types name) leaves
// the keys of its importers as they were, and their entries are reused.
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

// roundSigs are the facts signatures of one round's packages, by ID: a package's are set
// once its analysis in the round is done or its entry read. A package missing has none (its
// analysis failed, or gave what cannot be stored): its importers' entries cannot be keyed.
type roundSigs struct {
	mu   sync.Mutex
	sigs map[string]cache.Key
}

func newRoundSigs() *roundSigs { return &roundSigs{sigs: map[string]cache.Key{}} }

func (rs *roundSigs) get(id string) (cache.Key, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	k, ok := rs.sigs[id]
	return k, ok
}

func (rs *roundSigs) set(id string, k cache.Key) {
	rs.mu.Lock()
	rs.sigs[id] = k
	rs.mu.Unlock()
}

// signedByTypes reports whether a package's types signature is the hash of its declarations:
// a package with a file that can change, which the analysis does not skip (a skipped
// package stores no entry to keep the signature in).
func (st *pkgStore) signedByTypes(p *packages.Package) bool {
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
func (st *pkgStore) typeKey(p *packages.Package) (cache.Key, bool) {
	st.mu.Lock()
	k, ok := st.typeKeys[p.ID]
	st.mu.Unlock()
	if ok {
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
	for _, path := range importPaths(p) {
		sig, ok := st.typeSig(p.Imports[path].ID)
		if !ok {
			return cache.Key{}, false
		}
		h.String("import", path)
		h.Key("types", sig)
	}
	k = h.Sum()
	st.mu.Lock()
	st.typeKeys[p.ID] = k
	st.mu.Unlock()
	return k, true
}

func (st *pkgStore) typeSig(id string) (cache.Key, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	k, ok := st.typeSigs[id]
	return k, ok
}

func (st *pkgStore) setTypeSig(id string, k cache.Key) {
	st.mu.Lock()
	st.typeSigs[id] = k
	st.mu.Unlock()
}

// signTypes computes the types signature of a package just analysed (meta is its
// metadata), once a run. ok is false for a package with errors or an import without a
// signature.
func (st *pkgStore) signTypes(pkg, meta *packages.Package) (cache.Key, bool) {
	if sig, ok := st.typeSig(pkg.ID); ok {
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
	st.setTypeSig(pkg.ID, sig)
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

// storedTypeSig is the types signature of a package whose entry was read: the entry's for
// a package signed by its types (ok is false when the entry has none), else its types key.
func (st *pkgStore) storedTypeSig(p *packages.Package, e *pkgEntry) (cache.Key, bool) {
	if sig, ok := st.typeSig(p.ID); ok {
		return sig, true
	}
	var sig cache.Key
	if st.signedByTypes(p) {
		if len(e.Types) != len(sig) {
			return cache.Key{}, false
		}
		copy(sig[:], e.Types)
	} else {
		tk, ok := st.typeKey(p)
		if !ok {
			return cache.Key{}, false
		}
		sig = tk
	}
	st.setTypeSig(p.ID, sig)
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
	for _, path := range importPaths(p) {
		sig, ok := rs.get(p.Imports[path].ID)
		if !ok {
			return cache.Key{}, false
		}
		h.String("import", path)
		h.Key("facts", sig)
	}
	return h.Sum(), true
}

// entryKey is the key of a package's entry for a round's view; ok is false when an import
// has no facts signature in the round.
func (st *pkgStore) entryKey(p *packages.Package, rs *roundSigs, view cache.Key) (cache.Key, bool) {
	own, ok := st.own[p.ID]
	if !ok {
		return cache.Key{}, false
	}
	h := cache.NewHasher("package view")
	h.Key("base", st.base)
	h.Key("own", own)
	for _, path := range importPaths(p) {
		sig, ok := rs.get(p.Imports[path].ID)
		if !ok {
			return cache.Key{}, false
		}
		h.String("import", path)
		h.Key("facts", sig)
	}
	h.Key("view", view)
	return h.Sum(), true
}

// exportKey is the key of a package's export data; ok as for typeKey.
func (st *pkgStore) exportKey(p *packages.Package) (cache.Key, bool) {
	tk, ok := st.typeKey(p)
	if !ok {
		return cache.Key{}, false
	}
	h := cache.NewHasher("export data")
	h.Key("types", tk)
	return h.Sum(), true
}

// isUnsafe reports whether pkg is the unsafe package, which has no export data.
func isUnsafe(pkg *packages.Package) bool {
	return pkg.Types == types.Unsafe || pkg.PkgPath == "unsafe"
}

package reuse

import (
	"bytes"
	"encoding/binary"
	"errors"
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/gcexportdata"
	"golang.org/x/tools/go/packages"
)

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

// importsOf maps the paths of every package n imports, directly or not, to its types: the
// packages its export data refers to. The map is n's own: with test variants, two packages
// of one path (p and p [p.test]) are in the program, and each dependency of n must be the
// one n was compiled against.
func importsOf(n *packages.Package) map[string]*types.Package {
	m := map[string]*types.Package{}
	var walk func(p *packages.Package)
	walk = func(p *packages.Package) {
		for _, imp := range p.Imports {
			if _, seen := m[imp.PkgPath]; seen || imp.Types == nil {
				continue
			}
			m[imp.PkgPath] = imp.Types
			walk(imp)
		}
	}
	walk(n)
	return m
}

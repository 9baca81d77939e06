// Tables of handlers another package registers: an exported variable that lists functions
// of the package (var Jobs = []Job{{Name: "digest:send", Run: sendDigest}}), which a
// package that imports it ranges over to register each (for _, j := range jobs.Jobs {
// mux.HandleFunc(j.Name, wrap(j.Run)) }). The registering package sees the variable but
// not its value: the table's fact names the functions.

package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
)

// TableFact is exported on an exported package-level variable whose value, a composite
// literal (a slice, array or map of functions, or of structs holding them), names
// functions of its package: their names, in the order they appear.
type TableFact struct {
	Funcs []string
	// Effects holds the effects fact of each function of Funcs in its own encoding (empty:
	// none), for the registering package: a fact on an unexported function does not reach
	// it.
	Effects [][]byte
}

// AddEffects sets the effects of each listed function, as factOf gives them.
func (f *TableFact) AddEffects(factOf func(name string) *effect.Fact) {
	f.Effects = make([][]byte, len(f.Funcs))
	for i, name := range f.Funcs {
		if fact := factOf(name); fact != nil {
			f.Effects[i], _ = fact.MarshalBinary()
		}
	}
}

// effectsOf returns the effects the table carries for its i'th function, or nil.
func (f *TableFact) effectsOf(i int) *effect.Fact {
	if i >= len(f.Effects) || len(f.Effects[i]) == 0 {
		return nil
	}
	fact := new(effect.Fact)
	if fact.UnmarshalBinary(f.Effects[i]) != nil {
		return nil
	}
	return fact
}

// AFact marks TableFact as an analysis fact.
func (*TableFact) AFact() {}

func (f *TableFact) String() string { return "table(" + strings.Join(f.Funcs, ", ") + ")" }

// Tables returns the package's exported variables that list its functions (TableFact),
// read from their declarations' values; test files are left out.
func Tables(in Input) map[*types.Var]*TableFact {
	out := map[*types.Var]*TableFact{}
	for _, file := range in.Files {
		if strings.HasSuffix(in.Fset.File(file.Pos()).Name(), "_test.go") {
			continue
		}
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					v, ok := in.Info.Defs[name].(*types.Var)
					if !ok || !v.Exported() || i >= len(vs.Values) {
						continue
					}
					lit, ok := ast.Unparen(vs.Values[i]).(*ast.CompositeLit)
					if !ok || !listType(v.Type()) {
						continue
					}
					if funcs := listedFuncs(in, lit); len(funcs) > 0 {
						out[v] = &TableFact{Funcs: funcs}
					}
				}
			}
		}
	}
	return out
}

// listType reports whether t is a slice, array or map: a list of entries.
func listType(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
		return true
	}
	return false
}

// listedFuncs returns the names of the package-level functions of the package that lit
// holds as values (not calls), each once.
func listedFuncs(in Input, lit *ast.CompositeLit) []string {
	var out []string
	seen := map[string]bool{}
	called := map[ast.Expr]bool{}
	ast.Inspect(lit, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false // a literal's body is not a table entry
		case *ast.CallExpr:
			called[ast.Unparen(x.Fun)] = true
		case *ast.Ident:
			fn, ok := in.Info.Uses[x].(*types.Func)
			if ok && !called[x] && fn.Pkg() == in.Pkg && fn.Signature().Recv() == nil && fn.Parent() == in.Pkg.Scope() && !seen[fn.Name()] {
				seen[fn.Name()] = true
				out = append(out, fn.Name())
			}
		}
		return true
	})
	return out
}

// tableFuncs returns the functions an imported table variable v lists (its TableFact), as
// objects of v's package, and notes the effects the table carries for each
// (finder.listed); nil when it has none.
func (f *finder) tableFuncs(v *types.Var) []*types.Func {
	if f.table == nil || v.Pkg() == nil || v.Pkg() == f.pkg || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	fact := f.table(v)
	if fact == nil {
		return nil
	}
	var out []*types.Func
	for i, name := range fact.Funcs {
		if fn, ok := v.Pkg().Scope().Lookup(name).(*types.Func); ok {
			out = append(out, fn)
			if e := fact.effectsOf(i); e != nil {
				if f.listed == nil {
					f.listed = map[*types.Func]*effect.Fact{}
				}
				f.listed[fn] = e
			}
		}
	}
	return out
}

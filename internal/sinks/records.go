// ORM inserts of a record (GORM's Create(&v), bun's NewInsert().Model(&v)): the schema
// judges them as it judges an INSERT's text, with the record's struct type naming the table
// and the fields its literal sets naming the columns.

package sinks

import (
	"go/ast"
	"go/types"
	"path/filepath"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// recordInsert judges a builder sink that inserts a record by the schema's keys of the
// record's table; guarded: the chain makes it an upsert. It returns nil where the schema
// says nothing (no schema, a table it does not declare, a record whose fields are not
// seen) and the builder's own verdict stands.
func (j *Judge) recordInsert(mk keys.Make, s *model.Sink, call *ast.CallExpr, guarded bool, sc Scope) *effect.Effect {
	if s.Kind != effect.SQLWrite || j.Schema.Len() == 0 {
		return nil
	}
	rec := j.recordArg(call)
	if rec == nil {
		return nil
	}
	t := j.info().TypeOf(rec)
	if t == nil {
		return nil
	}
	// GORM takes a record, a pointer to one, or the address of a pointer variable
	// (entity := &Plan{...}; db.Create(&entity)).
	t = defuse.Deref(defuse.Deref(t))
	if sl, ok := t.Underlying().(*types.Slice); ok {
		t = defuse.Deref(sl.Elem())
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	dir := ""
	if j.Fset != nil {
		if f := j.Fset.Position(named.Obj().Pos()).Filename; f != "" {
			dir = filepath.Dir(f)
		}
	}
	table := j.Schema.ModelTable(named.Obj().Name(), dir, st)
	if table == nil {
		return nil
	}
	cols, values, seen := j.recordColumns(rec, st)
	if !seen {
		return nil
	}
	return j.statementsIn(sc).Record(mk, s.What+" of "+named.Obj().Name(), table, cols, values, guarded)
}

// recordArg is the record an insert writes: the first argument of the sink when it is a
// records call (GORM Create), else of the records call in its receiver chain (bun Model),
// followed through local variables.
func (j *Judge) recordArg(call *ast.CallExpr) ast.Expr {
	isRecord := func(c *ast.CallExpr) bool {
		fn, ok := typeutil.Callee(j.info(), c).(*types.Func)
		return ok && len(c.Args) > 0 && j.Models.Of(fn).Record
	}
	if isRecord(call) {
		return call.Args[0]
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	var rec ast.Expr
	j.Defs.Find(sel.X, defuse.Fills, func(x ast.Node) bool {
		if c, ok := x.(*ast.CallExpr); ok && isRecord(c) {
			rec = c.Args[0]
			return true
		}
		return false
	})
	return rec
}

// recordColumns returns the columns a record sets, in order, and the value each is set to,
// from the struct literal it is made of (given directly, or defined once in a local
// variable) and the assignments to the variable's fields; seen is false when no literal is
// found.
func (j *Judge) recordColumns(rec ast.Expr, st *types.Struct) (cols []string, values map[string]ast.Expr, seen bool) {
	values = map[string]ast.Expr{}
	lit, sets := j.Defs.StructValue(rec)
	if lit == nil {
		return nil, nil, false
	}
	set := func(field string, value ast.Expr) {
		for i := range st.NumFields() {
			if st.Field(i).Name() != field {
				continue
			}
			col := schema.FieldColumn(st, i)
			if col == "" {
				return
			}
			if _, set := values[col]; !set {
				cols = append(cols, col)
			}
			values[col] = value
		}
	}
	for i, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				set(id.Name, kv.Value)
			}
		} else if i < st.NumFields() {
			set(st.Field(i).Name(), e)
		}
	}
	for _, a := range sets {
		for i, l := range a.Lhs {
			if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && i < len(a.Rhs) && len(a.Lhs) == len(a.Rhs) {
				if _, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
					set(sel.Sel.Name, a.Rhs[i])
				}
			}
		}
	}
	return cols, values, true
}

// Column updates (gorm): a value set from an SQL expression that adds to its column, and a
// record written back whole after a read-modify-write, are not safe to repeat; plain values
// converge.

package statements

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks/keys"
	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// Values judges a column update (gorm Update("balance", gorm.Expr("balance + ?", n)),
// Updates(map[string]any{...})): an effect only when a value is a modelled SQL expression
// whose text adds to the column it sets; plain values converge. Arg is the column (its
// value follows) or the map.
func (rd Reader) Values(mk keys.Make, call *ast.CallExpr, arg int) *effect.Effect {
	if arg < 0 || arg >= len(call.Args) {
		return nil
	}
	where := rd.chainWhere(call)
	if col := rd.Defs.ConstString(call.Args[arg]); col != "" && arg+1 < len(call.Args) {
		return rd.relativeValue(mk, col, call.Args[arg+1], where)
	}
	if e := rd.recordEffect(mk, call, call.Args[arg]); e != nil {
		return e
	}
	m := ast.Unparen(call.Args[arg])
	if v := rd.Defs.RootVar(m); v != nil {
		m = ast.Unparen(rd.Defs.Def(v))
	}
	cl, ok := m.(*ast.CompositeLit)
	if !ok {
		return nil
	}
	for _, elt := range cl.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if col := rd.Defs.ConstString(kv.Key); col != "" {
				if e := rd.relativeValue(mk, col, kv.Value, where); e != nil {
					return e
				}
			}
		}
	}
	return nil
}

// relativeValue returns the effect of setting col to value when value is a modelled SQL
// expression (followed through local variables) that adds to col, or nil. where is the
// update's condition as SQL (chainWhere): a condition on col that the first run makes
// false (content_version = ?, the version it read) is a compare-and-set, which converges.
func (rd Reader) relativeValue(mk keys.Make, col string, value ast.Expr, where string) *effect.Effect {
	value = ast.Unparen(value)
	if v := rd.Defs.RootVar(value); v != nil && rd.Defs.Def(v) != nil {
		value = ast.Unparen(rd.Defs.Def(v))
	}
	call, ok := value.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	fn, ok := typeutil.Callee(rd.info(), call).(*types.Func)
	if !ok || !rd.Models.Of(fn).SQLExpr {
		return nil
	}
	text := rd.Defs.ConstString(call.Args[0])
	if text == "" {
		return nil
	}
	res := sqlstmt.Classify("UPDATE t SET " + col + " = " + text + where)
	if res.Class != sqlstmt.NonIdempotent {
		return nil
	}
	return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason+" ("+fn.Pkg().Name()+"."+fn.Name()+")")
}

// chainWhere returns the conditions of the builder chain an update is called on, as an SQL
// WHERE clause (" WHERE (a) AND (b)"), or "": each Where call with constant text, on the
// chain itself or on the builder variable it is called on (q := db.Where(...); q.Update).
// Conditions that are not constant text (a struct, a map) are left out: they cannot make a
// relative update converge here.
func (rd Reader) chainWhere(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	var conds []string
	rd.Defs.ChainCalls(sel.X, func(c *ast.CallExpr, name string) {
		if name == "Where" && len(c.Args) > 0 {
			if text := rd.Defs.ConstString(c.Args[0]); text != "" {
				conds = append(conds, "("+text+")")
			}
		}
	})
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// recordEffect judges a record written back whole (gorm Save(&t), Updates(&t)) after a
// read-modify-write: t is a local struct filled by another call given its address (the
// read, db.First(&t, id)) or returned by one (t, err := repo.Get(db, id)), and one of its fields is set from its own value (t.N += d,
// t.N = t.N - d). A repeat applies the change twice. Fields set to plain values converge
// (nil). Flow-insensitive: any such read and set in the function count.
func (rd Reader) recordEffect(mk keys.Make, call *ast.CallExpr, rec ast.Expr) *effect.Effect {
	rec = ast.Unparen(rec)
	if u, ok := rec.(*ast.UnaryExpr); ok && u.Op == token.AND {
		rec = ast.Unparen(u.X)
	}
	id, ok := rec.(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := rd.info().ObjectOf(id).(*types.Var)
	if v == nil || !rd.readBesides(v, call) {
		return nil
	}
	for _, set := range rd.Defs.FieldSets(v) {
		if f := relativeFieldSet(rd.info(), set, v); f != "" {
			return mk(effect.Unprotected, "SQL write not safe to repeat: relative UPDATE of "+f+" (read-modify-write of "+v.Name()+")")
		}
	}
	return nil
}

// readBesides says whether a call other than write is given v's address (the read that
// fills the record before it is changed), or v is a call's result (a repository's
// GetVideoByKey(db, key) that returns the record it read).
func (rd Reader) readBesides(v *types.Var, write *ast.CallExpr) bool {
	for _, c := range rd.Defs.Fills(v) {
		if c != write {
			return true
		}
	}
	for _, d := range rd.Defs.Defs(v) {
		if _, ok := ast.Unparen(d).(*ast.CallExpr); ok {
			return true
		}
	}
	return false
}

// relativeFieldSet returns the field of v an assignment sets from its own value (v.F += x,
// v.F -= x, v.F = v.F + x), or "".
func relativeFieldSet(info *types.Info, set *ast.AssignStmt, v *types.Var) string {
	if len(set.Lhs) != 1 || len(set.Rhs) != 1 {
		return ""
	}
	sel, ok := ast.Unparen(set.Lhs[0]).(*ast.SelectorExpr)
	if !ok || defuse.RootVar(info, sel) != v {
		return ""
	}
	switch set.Tok {
	case token.ADD_ASSIGN, token.SUB_ASSIGN:
		return sel.Sel.Name
	case token.ASSIGN:
		bin, ok := ast.Unparen(set.Rhs[0]).(*ast.BinaryExpr)
		if ok && (bin.Op == token.ADD || bin.Op == token.SUB) && (sameField(info, bin.X, sel) || sameField(info, bin.Y, sel)) {
			return sel.Sel.Name
		}
	}
	return ""
}

// sameField says whether e selects the same field of the same variable as sel.
func sameField(info *types.Info, e ast.Expr, sel *ast.SelectorExpr) bool {
	other, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok && info.Uses[other.Sel] == info.Uses[sel.Sel] && info.Uses[other.Sel] != nil &&
		defuse.RootVar(info, other) == defuse.RootVar(info, sel)
}

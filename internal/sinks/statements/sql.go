// Statement text: what an Exec or Query runs, classified by sqlstmt, with the texts a
// statement argument may hold and the text a prepared statement was prepared from.

package statements

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/sinks/keys"
	"github.com/chokaq/idemlint/internal/sqlstmt"
	"github.com/chokaq/idemlint/internal/strval"
)

// Statement judges an Exec- or Query-style call by the statement its argument arg holds (or,
// ranged over a list, each one it may hold): query is set for Query*-style calls, args are
// the statement's arguments. It returns nil for a read.
func (rd Reader) Statement(mk keys.Make, arg ast.Expr, query bool, args []ast.Expr) *effect.Effect {
	return rd.worstSQL(mk, rd.statementTexts(arg), query, args)
}

// Prepared judges a call made on a prepared statement by the text it was prepared from;
// query is set for its Query-, Select- and Get-style methods, which write only when the
// text says so.
func (rd Reader) Prepared(mk keys.Make, call *ast.CallExpr, query bool) *effect.Effect {
	return rd.sqlEffect(mk, rd.PreparedText(call), query, call.Args)
}

// sqlEffect classifies statement text. query is set for Query*-style calls, which are
// writes only when the text says so; args are the statement's arguments. An INSERT into a
// table the models name append-only is no effect.
func (rd Reader) sqlEffect(mk keys.Make, text string, query bool, args []ast.Expr) *effect.Effect {
	res := sqlstmt.Classify(text)
	if res.Table != "" && rd.Models.Index.AppendOnly(res.Table) {
		return nil
	}
	switch res.Class {
	case sqlstmt.Read:
		return nil
	case sqlstmt.Unknown:
		if query || res.Unread {
			// An unknown query is far more often a read than a write; and a text of which
			// nothing is known (its verb built at run time, a word not understood) shows no
			// write: a session statement is as likely.
			return nil
		}
		return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason)
	case sqlstmt.NonIdempotent:
		if why := rd.replacingInsert(text, args); why != "" {
			return mk(effect.Protected, why)
		}
		if v, ok := rd.insertKeys(text, args); ok && res.Table != "" {
			switch {
			case v.sample != "":
				return nil // an observation, taken again (keyVerdict.sample)
			case v.enforced != nil:
				e := mk(effect.Unprotected, "SQL write not safe to repeat: "+v.enforcedText())
				if len(v.keyArgs) > 0 {
					e.KeyArg, e.KeyArgFields, e.KeyArgFresh = 1, strings.Join(v.keyArgs, ","), "SQL write not safe to repeat: "+v.freshText()
				}
				return e
			case v.unkeyed:
				// Not "without conflict handling": no duplicate-key error can come, so a
				// check that takes one as done guards nothing (gates.Gate.Guard).
				return mk(effect.Unprotected, "SQL write not safe to repeat: INSERT into "+v.table.Name+" adds a row on every run: "+v.unkeyedText())
			}
		}
		return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason+rd.freshRow(res, args))
	default: // Guarded, Converging
		if src := rd.freshConflictKey(res, args); src != "" {
			return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason+" on a key made anew on every run (from "+src+"): a repeat inserts another row")
		}
		if v, ok := rd.insertKeys(text, args); ok && res.OnKey && v.unkeyed && v.sample == "" && !rd.rejectedTarget(text) {
			return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason+" absorbs nothing: "+v.unkeyedText()+", so the conflict never happens and a repeat inserts another row")
		}
		return mk(effect.Protected, res.Reason)
	}
}

// rejectedTarget reports whether an upsert's ON CONFLICT names columns that no unique key
// of its table (as the schema declares it) matches. The database rejects such an INSERT on
// every run (the sql.conflict check reports it), so no repeat adds a row; and where the
// database has the key after all, the upsert converges on it.
func (rd Reader) rejectedTarget(text string) bool {
	ct, ok := sqlstmt.Conflict(text)
	if !ok || rd.Schema == nil || len(ct.Columns) == 0 {
		return false
	}
	t := rd.Schema.Table(ct.Table)
	if t == nil {
		return false
	}
	cols, ok := schema.TargetColumns(ct.Columns)
	if !ok {
		return false // a template's verb or a bind: not the target the database sees
	}
	for _, k := range t.Keys {
		if k.Matches(cols, true) {
			return false
		}
	}
	return true
}

// freshConflictKey returns what makes a value bound to an upsert's conflict target anew on
// every run (uuid.New, the clock: an unstable function), or "": the conflict then never
// happens, and the upsert absorbs nothing.
func (rd Reader) freshConflictKey(res sqlstmt.Result, args []ast.Expr) string {
	for _, n := range res.ConflictParams {
		if n == 0 || int(n) > len(args) {
			continue
		}
		if src := rd.keys().UnstableSource(args[n-1]); src != "" {
			return src
		}
	}
	return ""
}

// worstSQL classifies each text a statement argument may hold and returns the worst effect.
func (rd Reader) worstSQL(mk keys.Make, texts []string, query bool, args []ast.Expr) *effect.Effect {
	var worst *effect.Effect
	for _, t := range texts {
		e := rd.sqlEffect(mk, t, query, args)
		if e != nil && (worst == nil || e.Worse(*worst)) {
			worst = e
		}
	}
	return worst
}

// statementTexts returns the texts a statement argument may hold: its text, or, for a field
// of the value variable of a range over a slice literal of struct literals (for _, m :=
// range []struct{ name, sql string }{{...}, ...} { db.Exec(m.sql) }), the field's text in
// each element, the slice literal given directly or through a local variable.
func (rd Reader) statementTexts(arg ast.Expr) []string {
	sel, ok := ast.Unparen(arg).(*ast.SelectorExpr)
	if !ok {
		return []string{rd.Defs.Text(arg)}
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	v, _ := rd.info().Uses[id].(*types.Var)
	if !ok || v == nil || rd.Defs.RangedOver(v) == nil {
		return []string{rd.Defs.Text(arg)}
	}
	over := ast.Unparen(rd.Defs.RangedOver(v))
	if w := rd.Defs.RootVar(over); w != nil && rd.Defs.Def(w) != nil {
		over = ast.Unparen(rd.Defs.Def(w))
	}
	lit, ok := over.(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return []string{rd.Defs.Text(arg)}
	}
	texts := make([]string, 0, len(lit.Elts))
	for _, elt := range lit.Elts {
		text, ok := rd.elementField(elt, sel.Sel.Name)
		if !ok {
			return []string{strval.Hole}
		}
		texts = append(texts, text)
	}
	return texts
}

// elementField returns the text of the field named name in a struct literal element of a
// slice literal (keyed, or positional by the struct's field order).
func (rd Reader) elementField(elt ast.Expr, name string) (string, bool) {
	if kv, ok := elt.(*ast.KeyValueExpr); ok { // an indexed element: [2]T{1: {...}}
		elt = kv.Value
	}
	lit, ok := ast.Unparen(elt).(*ast.CompositeLit)
	if !ok {
		return "", false
	}
	if v, ok := defuse.FieldValue(lit, name); ok {
		return rd.Defs.Text(v), true
	}
	st, ok := rd.info().TypeOf(lit).Underlying().(*types.Struct)
	if !ok || len(lit.Elts) != st.NumFields() {
		return "", false
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			if _, keyed := lit.Elts[i].(*ast.KeyValueExpr); !keyed {
				return rd.Defs.Text(lit.Elts[i]), true
			}
		}
	}
	return "", false
}

// freshRow explains an INSERT without conflict handling whose values include one made from
// a random or clock source: every run adds a row, which is a problem unless the table is
// meant to take one per run, and then the models can say so.
func (rd Reader) freshRow(res sqlstmt.Result, args []ast.Expr) string {
	if res.Table == "" {
		return ""
	}
	for _, a := range args {
		if src := rd.keys().UnstableSource(a); src != "" {
			return " into " + res.Table + ": a new row on every run (made from " + src +
				"); a table that takes one per run by design is named under append_only in the models"
		}
	}
	return ""
}

// PreparedText finds the text given to Prepare for the statement a call executes on
// (strval.Hole when it is not in view).
func (rd Reader) PreparedText(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return strval.Hole
	}
	return rd.stmtText(sel.X)
}

// stmtText returns the text the prepared statement e was prepared from: the last argument of
// a Prepare call; through a local variable assigned once; through a struct field the package
// assigns once, or pairs once with the text ({&s.insertStmt, insertSQL}, a list prepared in
// a loop); through a call given the statement that returns its type (tx.Stmt(s.insertStmt),
// a helper TxStmt(tx, s.insertStmt)).
func (rd Reader) stmtText(e ast.Expr) string {
	info := rd.info()
	text := strval.Hole
	rd.Defs.Find(e, defuse.Value|defuse.Fields, func(x ast.Node) bool {
		e := x.(ast.Expr)
		if t := info.TypeOf(e); t != nil && defuse.IsString(t) {
			text = rd.Defs.Text(e) // the text paired with a field
			return true
		}
		if c, ok := e.(*ast.CallExpr); ok {
			fn, ok := typeutil.Callee(info, c).(*types.Func)
			if ok && strings.HasPrefix(fn.Name(), "Prepare") && len(c.Args) > 0 {
				text = rd.Defs.Text(c.Args[len(c.Args)-1])
				return true
			}
		}
		return false
	}, defuse.Through(func(x ast.Expr) []ast.Expr {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return nil
		}
		for _, a := range c.Args {
			if t := info.TypeOf(a); t != nil && types.Identical(t, info.TypeOf(c)) {
				return []ast.Expr{a} // the statement a call returns again, in another form
			}
		}
		return nil
	}))
	return text
}

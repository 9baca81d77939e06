// Update expressions: a DynamoDB UpdateItem is an effect only when its expression adds to
// what is stored.

package sinks

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// updateEffect judges a write by its update expression (DynamoDB UpdateItem): only a
// relative one is an effect, since an absolute SET converges on a repeat. An expression
// not given in view, or whose text is not known, is not reported. A relative update is
// guarded by a condition field (attribute_not_exists) or a key field on the params.
func (j *Judge) updateEffect(mk mkEffect, s *model.Sink, params ast.Expr, sc Scope) *effect.Effect {
	expr, ok := j.paramsField(params, s.Field)
	if !ok {
		return nil
	}
	why := relativeUpdate(j.Defs.Text(defuse.Unwrap(expr)))
	if why == "" {
		return nil
	}
	e := j.providerEffect(mk, s, params, sc)
	if e.State == effect.Unprotected {
		e.Detail += " (" + why + ")"
	}
	return e
}

// paramsField finds the value given to the field named field ("pkg.Type.Field") in the
// params literal, the literal assigned to the params variable, or an assignment of the
// field on that variable.
func (j *Judge) paramsField(params ast.Expr, field string) (ast.Expr, bool) {
	if params == nil {
		return nil, false
	}
	want := model.Normalize(field)
	info := j.info()
	v := j.Defs.RootVar(params)
	lit := ast.Unparen(params)
	if v != nil {
		lit = ast.Unparen(j.Defs.Def(v))
	}
	if u, ok := lit.(*ast.UnaryExpr); ok {
		lit = ast.Unparen(u.X)
	}
	if cl, ok := lit.(*ast.CompositeLit); ok {
		t := info.TypeOf(cl)
		for _, elt := range cl.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && model.Normalize(fieldName(t, id.Name)) == want {
					return kv.Value, true
				}
			}
		}
	}
	if v != nil {
		for _, as := range j.Defs.FieldSets(v) {
			for i, l := range as.Lhs {
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && i < len(as.Rhs) && model.Normalize(j.declaredField(sel)) == want {
					return as.Rhs[i], true
				}
			}
		}
	}
	return nil, false
}

var (
	updateClause = regexp.MustCompile(`(?i)\b(SET|REMOVE|ADD|DELETE)\s`)
	updatePath   = regexp.MustCompile(`[#\w][\w.#\[\]]*`)
)

// relativeUpdate says why a DynamoDB update expression adds to what is there (so that a
// repeat applies it twice), or returns "" for one that converges: an ADD clause (to a
// number; ADD to a set converges, but the type is not known), a SET of list_append, or a
// SET whose value computes from the attribute it sets (a = a + :n, a = if_not_exists(a,
// :zero) + :n).
func relativeUpdate(text string) string {
	locs := updateClause.FindAllStringSubmatchIndex(text, -1)
	for i, loc := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		body := strings.TrimSpace(text[loc[1]:end])
		switch strings.ToUpper(text[loc[2]:loc[3]]) {
		case "ADD":
			return "update expression ADD " + body
		case "SET":
			for _, set := range splitTop(body) {
				lhs, rhs, ok := strings.Cut(set, "=")
				if !ok {
					continue
				}
				lhs, rhs = strings.TrimSpace(lhs), strings.TrimSpace(rhs)
				if strings.Contains(strings.ToLower(rhs), "list_append(") {
					return "update expression SET " + set + " appends to a list"
				}
				if !strings.ContainsAny(rhs, "+-") {
					continue
				}
				if strings.Contains(strings.ToLower(rhs), "if_not_exists(") {
					return "update expression SET " + set + " adds to the attribute"
				}
				for _, p := range updatePath.FindAllString(rhs, -1) {
					if p == lhs {
						return "update expression SET " + set + " adds to the attribute"
					}
				}
			}
		}
	}
	return ""
}

// splitTop splits a SET clause's actions at the commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// valuesEffect judges a column update (gorm Update("balance", gorm.Expr("balance + ?", n)),
// Updates(map[string]any{...})): an effect only when a value is a modelled SQL expression
// whose text adds to the column it sets; plain values converge. Arg is the column (its
// value follows) or the map.
func (j *Judge) valuesEffect(mk mkEffect, call *ast.CallExpr, arg int) *effect.Effect {
	if arg < 0 || arg >= len(call.Args) {
		return nil
	}
	if col := j.Defs.ConstString(call.Args[arg]); col != "" && arg+1 < len(call.Args) {
		return j.relativeValue(mk, col, call.Args[arg+1])
	}
	if e := j.recordEffect(mk, call, call.Args[arg]); e != nil {
		return e
	}
	m := ast.Unparen(call.Args[arg])
	if v := j.Defs.RootVar(m); v != nil {
		m = ast.Unparen(j.Defs.Def(v))
	}
	cl, ok := m.(*ast.CompositeLit)
	if !ok {
		return nil
	}
	for _, elt := range cl.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if col := j.Defs.ConstString(kv.Key); col != "" {
				if e := j.relativeValue(mk, col, kv.Value); e != nil {
					return e
				}
			}
		}
	}
	return nil
}

// relativeValue returns the effect of setting col to value when value is a modelled SQL
// expression (followed through local variables) that adds to col, or nil.
func (j *Judge) relativeValue(mk mkEffect, col string, value ast.Expr) *effect.Effect {
	value = ast.Unparen(value)
	if v := j.Defs.RootVar(value); v != nil && j.Defs.Def(v) != nil {
		value = ast.Unparen(j.Defs.Def(v))
	}
	call, ok := value.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	fn, ok := typeutil.Callee(j.info(), call).(*types.Func)
	if !ok || !j.Models.Of(fn).SQLExpr {
		return nil
	}
	text := j.Defs.ConstString(call.Args[0])
	if text == "" {
		return nil
	}
	res := sqlstmt.Classify("UPDATE t SET " + col + " = " + text)
	if res.Class != sqlstmt.NonIdempotent {
		return nil
	}
	return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason+" ("+fn.Pkg().Name()+"."+fn.Name()+")")
}

// recordEffect judges a record written back whole (gorm Save(&t), Updates(&t)) after a
// read-modify-write: t is a local struct filled by another call given its address (the
// read, db.First(&t, id)) and one of its fields is set from its own value (t.N += d,
// t.N = t.N - d). A repeat applies the change twice. Fields set to plain values converge
// (nil). Flow-insensitive: any such read and set in the function count.
func (j *Judge) recordEffect(mk mkEffect, call *ast.CallExpr, rec ast.Expr) *effect.Effect {
	rec = ast.Unparen(rec)
	if u, ok := rec.(*ast.UnaryExpr); ok && u.Op == token.AND {
		rec = ast.Unparen(u.X)
	}
	id, ok := rec.(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := j.info().ObjectOf(id).(*types.Var)
	if v == nil || !j.readBesides(v, call) {
		return nil
	}
	for _, set := range j.Defs.FieldSets(v) {
		if f := relativeFieldSet(j.info(), set, v); f != "" {
			return mk(effect.Unprotected, "SQL write not safe to repeat: relative UPDATE of "+f+" (read-modify-write of "+v.Name()+")")
		}
	}
	return nil
}

// readBesides says whether a call other than write is given v's address (the read that
// fills the record before it is changed).
func (j *Judge) readBesides(v *types.Var, write *ast.CallExpr) bool {
	for _, c := range j.Defs.Fills(v) {
		if c != write {
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

package params

import (
	"go/ast"
	"regexp"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// Update judges a write by its update expression (DynamoDB UpdateItem): only a
// relative one is an effect, since an absolute SET converges on a repeat. An expression
// not given in view, or whose text is not known, is not reported. A relative update is
// guarded by a condition field (attribute_not_exists of an attribute it sets:
// ConditionTestsWrite) or a key field on the params.
func (rd Reader) Update(mk keys.Make, s *model.Sink, params ast.Expr, sc keys.Scope) *effect.Effect {
	expr, ok := rd.paramsField(params, s.Field)
	if !ok {
		return nil
	}
	why := relativeUpdate(rd.Defs.Text(defuse.Unwrap(expr)))
	if why == "" {
		return nil
	}
	if rd.Conditioned(params) && !rd.ConditionTestsWrite(params) {
		return mk(effect.Unprotected, s.What+" whose condition a repeat passes again ("+why+"; its attribute_not_exists tests no attribute the update sets)")
	}
	e := rd.Provider(mk, s, params, sc)
	if e.State == effect.Unprotected {
		e.Detail += " (" + why + ")"
	}
	return e
}

// ConditionTestsWrite reports whether conditional params that carry an update expression
// (DynamoDB's UpdateItemInput) test, with attribute_not_exists(x) in their condition, an
// attribute x the expression sets (SET x = ...): the second run finds it set and fails. An
// update that sets something else (SET hits = hits + :one under
// attribute_not_exists(deletedAt)) passes its condition again. Params with no update
// expression (a put, which writes the whole item) are judged by their condition alone: true.
func (rd Reader) ConditionTestsWrite(params ast.Expr) bool {
	upd := rd.Defs.StructField(params, "UpdateExpression")
	if upd == nil {
		return true
	}
	cond := rd.Defs.StructField(params, "ConditionExpression")
	if cond == nil {
		return false
	}
	set := strings.ToLower(rd.Defs.Text(defuse.Unwrap(upd)))
	loc := setClause.FindStringIndex(set)
	if loc == nil {
		return false
	}
	assigned := map[string]bool{}
	for _, m := range setTarget.FindAllStringSubmatch(" "+set[loc[1]:], -1) {
		assigned[m[1]] = true
	}
	for _, m := range notExists.FindAllStringSubmatch(strings.ToLower(rd.Defs.Text(defuse.Unwrap(cond))), -1) {
		if assigned[m[1]] {
			return true
		}
	}
	return false
}

var (
	// setClause matches the start of an update expression's SET clause (lower case).
	setClause = regexp.MustCompile(`\bset\s`)
	// setTarget matches an assignment after it, the attribute assigned (#alias, a.b) as
	// group 1.
	setTarget = regexp.MustCompile(`[\s,]([#\w.]+)\s*=`)
	// notExists matches attribute_not_exists(name) in a condition expression (lower
	// case), the name (#alias, a.b) as group 1.
	notExists = regexp.MustCompile(`attribute_not_exists\s*\(\s*([#\w.]+)\s*\)`)
)

// paramsField finds the value given to the field named field ("pkg.Type.Field") in the
// params literal, the literal assigned to the params variable, or an assignment of the
// field on that variable.
func (rd Reader) paramsField(params ast.Expr, field string) (ast.Expr, bool) {
	if params == nil {
		return nil, false
	}
	want := model.Normalize(field)
	info := rd.info()
	v := rd.Defs.RootVar(params)
	lit := ast.Unparen(params)
	if v != nil {
		lit = ast.Unparen(rd.Defs.Def(v))
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
		for _, as := range rd.Defs.FieldSets(v) {
			for i, l := range as.Lhs {
				if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && i < len(as.Rhs) && model.Normalize(DeclaredField(rd.info(), sel)) == want {
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

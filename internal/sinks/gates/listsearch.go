// Listings searched for what the code then writes: a range over the rows a lookup by the
// job's key listed, looking for one whose field holds a constant, before a write given that
// constant. Either the loop leaves when it finds it (for _, e := range events { if e.Type ==
// Closed { return nil } }, then WriteEvent(ctx, r, Closed)), or it notes it in a flag a later
// if tests (case Created: hasCreated = true; ... if !hasCreated { WriteEvent(ctx, r,
// Created) }). Once the row is written, a redelivery finds it and writes nothing: a check
// first, as a lookup's (effect.CheckedFirst).

package gates

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// listSearchGates returns the gates of a range over a listing by the job's key that looks
// for an element whose field is a constant: one over what follows the range in its block
// (from the first call given the constant) when the loop leaves on finding it, and one over
// the body of each later if in body that tests a flag the loop sets on finding it (from the
// first call in that body given the constant). nil otherwise.
func (rd Reader) listSearchGates(body *ast.BlockStmt, rs *ast.RangeStmt, en env, sc keys.Scope) []*Gate {
	elem := rd.rangeVar(rs.Value)
	if elem == nil || !rd.listedByKey(rs.X, en, sc) {
		return nil
	}
	found, flags := rd.searches(rs.Body, elem)
	what := "listing searched at " + rd.shortPos(rs.Pos())
	var gates []*Gate
	for _, c := range found {
		if written := rd.writesConstant(body, rs.End(), en.end, c); written != token.NoPos {
			gates = append(gates, &Gate{Start: written, End: en.end, What: what, Lookup: true})
		}
	}
	for flag, c := range flags {
		for _, b := range rd.flagUnsetTests(body, flag, rs.End()) {
			if written := rd.writesConstant(b, b.Lbrace, b.Rbrace, c); written != token.NoPos {
				gates = append(gates, &Gate{Start: written, End: b.Rbrace, What: what, Lookup: true})
			}
		}
	}
	return gates
}

// rangeVar returns the variable a range's value is, declared there (for _, e := range) or
// assigned, or nil.
func (rd Reader) rangeVar(e ast.Expr) *types.Var {
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	if v, ok := rd.info().Defs[id].(*types.Var); ok {
		return v
	}
	return rd.local(id)
}

// listedByKey reports whether x is a local variable whose value in view (en) is the first
// result of a lookup or listing call (Get..., List...) given the job's key.
func (rd Reader) listedByKey(x ast.Expr, en env, sc keys.Scope) bool {
	call, fn := rd.firstResultIn(x, en)
	return fn != nil && (lookupName(fn.Name()) || startsWithWord(fn.Name(), listVerbs)) && rd.chainGivenKey(call, sc)
}

// searches reads a range body that compares a field of elem with constants: the constants
// on whose match it returns (an if, or a case clause of a switch on the field, ending in a
// return), and the bool flags it sets to true on a match, with the constant each says was
// found.
func (rd Reader) searches(loop *ast.BlockStmt, elem *types.Var) (found []constant.Value, flags map[*types.Var]constant.Value) {
	flags = map[*types.Var]constant.Value{}
	onMatch := func(c constant.Value, list []ast.Stmt) {
		if len(list) > 0 {
			if _, ok := list[len(list)-1].(*ast.ReturnStmt); ok {
				found = append(found, c)
			}
		}
		for _, st := range list {
			if as, ok := st.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && isTrue(rd.info(), as.Rhs[0]) {
				if v := rd.local(as.Lhs[0]); v != nil && isBool(v.Type()) {
					flags[v] = c
				}
			}
		}
	}
	ast.Inspect(loop, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if c := rd.fieldConstant(x.Cond, elem); c != nil {
				onMatch(c, x.Body.List)
			}
		case *ast.SwitchStmt:
			if x.Tag == nil || !rd.fieldOf(x.Tag, elem) {
				return true
			}
			for _, st := range x.Body.List {
				cc, ok := st.(*ast.CaseClause)
				if !ok || len(cc.List) != 1 {
					continue
				}
				if tv := rd.info().Types[cc.List[0]]; tv.Value != nil {
					onMatch(tv.Value, cc.Body)
				}
			}
		}
		return true
	})
	return found, flags
}

// fieldConstant returns the constant cond compares a field of elem with (e.Type ==
// Closed), or nil.
func (rd Reader) fieldConstant(cond ast.Expr, elem *types.Var) constant.Value {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL {
		return nil
	}
	if rd.fieldOf(be.X, elem) {
		return rd.info().Types[be.Y].Value
	}
	if rd.fieldOf(be.Y, elem) {
		return rd.info().Types[be.X].Value
	}
	return nil
}

// fieldOf reports whether e selects a field of elem (e.Type).
func (rd Reader) fieldOf(e ast.Expr, elem *types.Var) bool {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	return ok && rd.local(sel.X) == elem
}

// flagUnsetTests returns the bodies of the if statements in body after pos whose condition
// is !flag.
func (rd Reader) flagUnsetTests(body *ast.BlockStmt, flag *types.Var, pos token.Pos) []*ast.BlockStmt {
	return ifBodiesAfter(body, pos, func(cond ast.Expr) bool {
		u, ok := ast.Unparen(cond).(*ast.UnaryExpr)
		return ok && u.Op == token.NOT && rd.local(u.X) == flag
	})
}

// writesConstant returns the position of the first call in body between start and end (not
// in literals) given the constant v, as an argument or as a keyed field of a struct literal
// argument (CreateUserRoleParams{Role: RoleOwner, ...}: the row it writes holds it), or
// NoPos. Only for a write of what a search looked for: a field given a constant says
// nothing of a status the call writes (passesConstant).
func (rd Reader) writesConstant(body *ast.BlockStmt, start, end token.Pos, v constant.Value) token.Pos {
	return rd.firstCall(body, start, end, func(call *ast.CallExpr) bool {
		for _, a := range call.Args {
			if tv := rd.info().Types[a]; equalConstants(tv.Value, v) || rd.fieldGiven(a, v) {
				return true
			}
		}
		return false
	})
}

// fieldGiven reports whether a is a struct literal (or its address) one of whose keyed
// fields is the constant v.
func (rd Reader) fieldGiven(a ast.Expr, v constant.Value) bool {
	a = ast.Unparen(a)
	if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
		a = ast.Unparen(u.X)
	}
	lit, ok := a.(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok && equalConstants(rd.info().Types[kv.Value].Value, v) {
			return true
		}
	}
	return false
}

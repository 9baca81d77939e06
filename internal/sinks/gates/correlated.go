// Gates carried to a later branch under the same condition. A claim checked in one branch of
// `if C { ... } else { claim; if err != nil { return err } }` guards what follows it in that
// branch; a later `if !C { notify(...) }` in the same block runs only when that branch ran,
// so the claim guards its body too, as long as nothing C reads is assigned in between. C is a
// bool variable or a call of a function of the package given variables (isReservation(p)):
// what is evaluated twice then answers twice alike.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"
)

// correlatedGates returns, for each gate of gates inside the body or the else block of an
// if of body, a copy over the body of each later if in the same block (or case clause)
// whose condition selects the same branch.
func (rd Reader) correlatedGates(body *ast.BlockStmt, gates []*Gate) []*Gate {
	if len(gates) == 0 {
		return nil
	}
	var out []*Gate
	ast.Inspect(body, func(x ast.Node) bool {
		if _, ok := x.(*ast.FuncLit); ok {
			return false
		}
		var list []ast.Stmt
		switch x := x.(type) {
		case *ast.BlockStmt:
			list = x.List
		case *ast.CaseClause:
			list = x.Body
		case *ast.CommClause:
			list = x.Body
		default:
			return true
		}
		for i, st := range list {
			ifs, ok := st.(*ast.IfStmt)
			if !ok || ifs.Init != nil || !rd.stableCondition(ifs.Cond) {
				continue
			}
			els, _ := ifs.Else.(*ast.BlockStmt)
			for _, g := range gates {
				var negated bool
				switch {
				case gateIn(g, ifs.Body):
				case els != nil && gateIn(g, els):
					negated = true
				default:
					continue
				}
				for _, later := range list[i+1:] {
					if rd.assignsAny(later, ifs.Cond) {
						break
					}
					l, ok := later.(*ast.IfStmt)
					if !ok || l.Init != nil || l.Else != nil || !rd.sameBranch(ifs.Cond, l.Cond, negated) {
						continue
					}
					c := *g
					c.Start, c.End = l.Body.Lbrace, l.Body.Rbrace
					out = append(out, &c)
				}
			}
		}
		return true
	})
	return out
}

// gateIn reports whether the gate is checked at the top level of blk: its region lies in
// blk and runs to blk's end. A claim checked deeper (under another if of the branch) was
// made only on some runs of the branch, and a later if under the same condition runs on all
// of them.
func gateIn(g *Gate, blk *ast.BlockStmt) bool {
	return g.OnTx == nil && blk.Lbrace <= g.Start && g.End == blk.Rbrace
}

// stableCondition reports whether cond is a bool variable or a call of a function of the
// package (not a method) given only variables, or the negation of one.
func (rd Reader) stableCondition(cond ast.Expr) bool {
	cond = ast.Unparen(cond)
	if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		return rd.stableCondition(u.X)
	}
	switch c := cond.(type) {
	case *ast.Ident:
		return rd.local(c) != nil
	case *ast.CallExpr:
		id, ok := ast.Unparen(c.Fun).(*ast.Ident)
		if !ok {
			return false
		}
		fn, ok := rd.info().Uses[id].(*types.Func) // a function, not a method: called by its name
		if !ok {
			return false
		}
		for _, a := range c.Args {
			if rd.local(a) == nil {
				return false
			}
		}
		return rd.Defs.Decl(fn) != nil
	}
	return false
}

// sameBranch reports whether later selects the branch of first that a gate is in: the same
// condition for its body, the negated one for its else.
func (rd Reader) sameBranch(first, later ast.Expr, negated bool) bool {
	f, l := ast.Unparen(first), ast.Unparen(later)
	if u, ok := l.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		l, negated = ast.Unparen(u.X), !negated
	}
	if u, ok := f.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		f, negated = ast.Unparen(u.X), !negated
	}
	return !negated && rd.sameExpr(f, l, nil)
}

// assignsAny reports whether st assigns (or takes the address of) a variable cond reads.
func (rd Reader) assignsAny(st ast.Stmt, cond ast.Expr) bool {
	vars := map[types.Object]bool{}
	ast.Inspect(cond, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if v := rd.local(id); v != nil {
				vars[v] = true
			}
		}
		return true
	})
	found := false
	ast.Inspect(st, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && vars[rd.info().ObjectOf(id)] {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && x.Op == token.AND && vars[rd.info().ObjectOf(id)] {
				found = true
			}
		}
		return !found
	})
	return found
}

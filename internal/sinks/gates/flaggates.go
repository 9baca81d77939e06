// Claims carried out of a function literal in a flag: a claim made inside a transaction's
// literal (store.WithTx(ctx, func(tx) error { ...UpdateOneID(id).Where(queue.Processing(true))...;
// if ent.IsNotFound(err) { return nil }; finalized = true; ... })) whose result the
// enclosing function reads after the call (if !finalized { return nil }). The literal's
// early return leaves the literal only; the flag says the claim was made.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// flagGate returns the gate of an if statement that leaves when a local bool is still
// false (!done, done == false) and the only places that set it true are inside function
// literals of body called before the if (not by go or defer), each under a claim that
// literal checks (its own
// Gates): the statements after the if run only when this delivery made the claim. The
// flag must start false (done := false, var done bool) and never have its address taken.
// nil otherwise.
func (rd Reader) flagGate(body *ast.BlockStmt, ifs *ast.IfStmt, end token.Pos, sc keys.Scope, of ClaimOf) *Gate {
	if len(ifs.Body.List) == 0 || !defuse.EndsBlock(ifs.Body.List[len(ifs.Body.List)-1]) {
		return nil
	}
	v := rd.unsetFlag(ifs.Cond)
	if v == nil || v.Parent() == nil || !within(body, v.Pos()) || rd.addressTaken(body, v) {
		return nil
	}
	var claim *Gate
	set := 0
	for _, d := range rd.Defs.Defs(v) {
		switch {
		case d == nil:
			return nil // set from a tuple: not a constant
		case rd.Defs.IsFalse(d) && d.Pos() < ifs.Pos():
			continue // the flag's start
		case !rd.Defs.IsTrue(d) || d.Pos() >= ifs.Pos():
			return nil
		}
		lit, later := literalAround(body, d.Pos())
		if lit == nil || later {
			return nil // set in the body itself, or by a literal run later (go, defer)
		}
		g := rd.claimAround(lit, d.Pos(), sc, of)
		if g == nil {
			return nil
		}
		claim, set = g, set+1
	}
	if set == 0 {
		return nil
	}
	return &Gate{
		Start:  ifs.End(),
		End:    end,
		What:   claim.What + " (its result carried out in " + v.Name() + ")",
		Lookup: claim.Lookup,
	}
}

// unsetFlag returns the local bool variable cond is true without: !v, v == false.
func (rd Reader) unsetFlag(cond ast.Expr) *types.Var {
	var x ast.Expr
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			x = c.X
		}
	case *ast.BinaryExpr:
		if c.Op == token.EQL && rd.Defs.IsFalse(c.Y) {
			x = c.X
		} else if c.Op == token.EQL && rd.Defs.IsFalse(c.X) {
			x = c.Y
		}
	}
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := rd.info().Uses[id].(*types.Var)
	if v == nil || v.IsField() {
		return nil
	}
	if b, ok := v.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return nil
	}
	return v
}

// claimAround returns the claim a function literal checks before pos (a gate of its body
// covering pos that claims the key, on its own or on a transaction), or nil. The literal is
// judged in sc with its own parameters added.
func (rd Reader) claimAround(lit *ast.FuncLit, pos token.Pos, sc keys.Scope, of ClaimOf) *Gate {
	inner := keys.Scope{Name: "func literal in " + sc.Name, Params: map[*types.Var]bool{}, Built: sc.Built}
	for p := range sc.Params {
		inner.Params[p] = true
	}
	for _, f := range lit.Type.Params.List {
		for _, n := range f.Names {
			if p, ok := rd.info().Defs[n].(*types.Var); ok {
				inner.Params[p] = true
			}
		}
	}
	for _, g := range rd.Gates(lit.Body, inner, of) {
		if g.Why == "" && g.Weak == "" && !g.Duplicate && g.Start <= pos && pos < g.End {
			return g
		}
	}
	return nil
}

// literalAround returns the innermost function literal of body that holds pos, or nil, and
// whether a go or defer statement holds the literal: it runs after the check, or at once
// beside it.
func literalAround(body *ast.BlockStmt, pos token.Pos) (lit *ast.FuncLit, later bool) {
	var goOrDefer []ast.Node
	ast.Inspect(body, func(x ast.Node) bool {
		if x == nil || !within(x, pos) {
			return false
		}
		switch x := x.(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			goOrDefer = append(goOrDefer, x)
		case *ast.FuncLit:
			lit = x
		}
		return true
	})
	for _, s := range goOrDefer {
		later = later || lit != nil && within(s, lit.Pos())
	}
	return lit, later
}

// within reports whether pos is inside n.
func within(n ast.Node, pos token.Pos) bool { return n.Pos() <= pos && pos < n.End() }

// addressTaken reports whether body takes v's address (&v): a callee may set it anywhere.
func (rd Reader) addressTaken(body *ast.BlockStmt, v *types.Var) bool {
	taken := false
	ast.Inspect(body, func(x ast.Node) bool {
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
			if id, ok := ast.Unparen(u.X).(*ast.Ident); ok && rd.info().Uses[id] == v {
				taken = true
			}
		}
		return !taken
	})
	return taken
}

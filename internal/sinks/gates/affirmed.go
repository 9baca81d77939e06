// Claims that guard the branch they open: if ok { notify() }, ok a claim affirmed (a Redis
// SETNX's result, a helper's bool that reports a conditional UPDATE). The body runs once per
// key, as the effects after `if !ok { return }` do.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// affirmedGate returns the gate of an if statement whose condition is true when a claim
// succeeded (ok, a count of rows claimed: n > 0, n == 1), covering its body; nil otherwise,
// and for a claim made on a transaction, which holds only until it commits.
func (rd Reader) affirmedGate(ifs *ast.IfStmt, en env, sc keys.Scope, of ClaimOf) *Gate {
	cond := ast.Unparen(ifs.Cond)
	if be, ok := cond.(*ast.BinaryExpr); ok && be.Op == token.LAND {
		if x := rd.withoutNonNil(be); x != nil {
			cond = ast.Unparen(x) // res != nil && !res.UniqueSkippedAsDuplicate
		}
	}
	inBody := func(tx *types.Var) []*ast.CallExpr { return rd.callsOnTxIn(tx, ifs.Body.List) }
	if not, ok := cond.(*ast.UnaryExpr); ok && not.Op == token.NOT {
		// !res.UniqueSkippedAsDuplicate: the insert was not turned away.
		if sel, ok := ast.Unparen(not.X).(*ast.SelectorExpr); ok {
			if call, g := rd.claimDuplicate(sel); g != nil {
				return rd.modelGate(call, g, ifs.Body.Lbrace, ifs.Body.Rbrace, sc, inBody)
			}
		}
		return nil
	}
	switch c := cond.(type) {
	case *ast.Ident, *ast.CallExpr, *ast.SelectorExpr:
	case *ast.BinaryExpr:
		if _, op, n, ok := rd.countTest(c); !ok || !countClaims(op, n) {
			return nil
		}
	default:
		return nil
	}
	if call, g := rd.claimResult(cond); g != nil {
		return rd.modelGate(call, g, ifs.Body.Lbrace, ifs.Body.Rbrace, sc, inBody)
	}
	cl := rd.sqlAffirmed(cond, en, of)
	if cl == nil || cl.tx != nil {
		return nil
	}
	return &Gate{Start: ifs.Body.Lbrace, End: ifs.Body.Rbrace, What: cl.what + " gate at " + rd.shortPos(cl.at), Why: cl.why, Weak: cl.weak}
}

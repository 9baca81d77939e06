// Claims returned: a helper that makes a claim and returns what it says (`updated bool`, a
// row count, the error of a RETURNING row, the error of a conditional put or one it returns
// when that failed), for its callers to check with an early return.

package gates

import (
	"go/ast"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// ReturnedClaim returns what a function's results say of a claim its body makes (sig is its
// signature, of the claims of the functions it calls), or nil: the first result, in the
// first return statement that reports one, that is a claim affirmed (a bool), a count, or a
// RETURNING row's error; or its error result, when an if that leaves with a non-nil error
// checks the failure of a claim that fails with an error. A claim whose key identifies
// nothing is not returned.
func (rd Reader) ReturnedClaim(body *ast.BlockStmt, sig *types.Signature, sc keys.Scope, of ClaimOf) *effect.Claim {
	if sig == nil || sig.Results().Len() == 0 || sig.Results().Len() > 255 {
		return nil
	}
	var out *effect.Claim
	errIdx := errorResult(sig)
	if errIdx >= 0 && boolResult(sig) && rd.swallowsErr(body, errIdx) {
		errIdx = -1 // a failed claim returns false, nil: the bool reports it, the error none
	}
	locks := rd.lockScans(body, sc, of)
	w := gateWalk{}
	w.visit = func(st ast.Stmt, en env) {
		if ifs, ok := st.(*ast.IfStmt); ok && out == nil && errIdx >= 0 {
			en.init = ifs.Init
			if cl := rd.returnedErrClaim(body, ifs, errIdx, en, sc, of, locks); cl != nil && cl.why == "" {
				out = &effect.Claim{Result: uint8(errIdx), Read: effect.ReadErr, What: cl.what}
			}
			return
		}
		ret, ok := st.(*ast.ReturnStmt)
		if !ok || out != nil {
			return
		}
		if len(ret.Results) == 1 && sig.Results().Len() > 1 {
			out = rd.forwardedClaim(ret.Results[0], sig, of) // return repo.Finish(ctx, id)
			return
		}
		if len(ret.Results) != sig.Results().Len() {
			return
		}
		last := len(body.List) > 0 && body.List[len(body.List)-1] == st
		for i, r := range ret.Results {
			if errIdx < 0 && isError(sig.Results().At(i).Type()) {
				continue
			}
			if isError(sig.Results().At(i).Type()) && !last {
				// An error returned on one branch says nothing of the others: a function
				// that returns the error of a claim made only there (return c, exhaust(...)
				// once the attempts are used up) returns nil on paths that claim nothing.
				continue
			}
			if _, slice := sig.Results().At(i).Type().Underlying().(*types.Slice); slice {
				if cl := rd.returnedRows(body, r, en, of); cl != nil {
					out = &effect.Claim{Result: uint8(i), Read: effect.ReadRows, What: cl.what}
					return
				}
			}
			if cl, read := rd.resultClaim(r, sig.Results().At(i).Type(), en, sc, of); cl != nil && cl.why == "" {
				out = &effect.Claim{Result: uint8(i), Read: read, What: cl.what}
				return
			}
		}
	}
	w.block(body.List, body.Rbrace)
	if out == nil {
		out = rd.lockedResult(body, sig)
	}
	return out
}

// resultClaim reads one returned value of type t as a claim.
func (rd Reader) resultClaim(r ast.Expr, t types.Type, en env, sc keys.Scope, of ClaimOf) (*claim, effect.ClaimRead) {
	switch {
	case isError(t):
		if cl := rd.sqlNoRows(r, en, of); cl != nil {
			return cl, effect.ReadNoRows
		}
		return rd.errClaim(r, en, sc, of), effect.ReadErr
	case types.Identical(t.Underlying(), types.Typ[types.Bool]):
		if rd.Defs.IsTrue(r) {
			if cl := rd.errClaimPassed(en, sc, of); cl != nil {
				return cl, effect.ReadTrue
			}
		}
		return rd.sqlAffirmed(r, en, of), effect.ReadTrue
	}
	if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
		return rd.sqlCount(r, en, of), effect.ReadCount
	}
	return nil, 0
}

// forwardedClaim returns the claim of a function whose return statement hands back all the
// results of a call (return s.queries.FinishTask(ctx, id)): the callee's claim, when the
// callee's results are the function's own.
func (rd Reader) forwardedClaim(r ast.Expr, sig *types.Signature, of ClaimOf) *effect.Claim {
	call, ok := ast.Unparen(r).(*ast.CallExpr)
	if !ok || of == nil {
		return nil
	}
	fn := callee(rd.info(), call)
	if fn == nil || !types.Identical(fn.Signature().Results(), sig.Results()) {
		return nil
	}
	c := of(fn.Origin())
	if c == nil {
		return nil
	}
	out := &effect.Claim{Result: c.Result, Read: c.Read, What: effect.FuncName(fn, nil) + " " + c.What}
	if c.Read == effect.ReadLocked {
		// The handle the row is locked on is the callee's: it is the function's own when
		// the function passes one of its parameters there.
		if c.On == 0 || c.On == effect.OnRecv || int(c.On) > len(call.Args) {
			return nil
		}
		out.On, out.Table = 0, c.Table
		v := rd.Defs.RootVar(call.Args[c.On-1])
		for i := 0; i < sig.Params().Len() && i < effect.OnRecv-1; i++ {
			if sig.Params().At(i) == v {
				out.On = uint8(i + 1)
			}
		}
		if out.On == 0 {
			return nil
		}
	}
	return out
}

// errClaimPassed returns the claim failing with an error that the statements before en, in
// its block, leave on: `if err != nil { ...; return false, ... }` after a conditional
// update, so that a `return true, nil` after it says the claim was made (a helper that
// turns ConditionalCheckFailedException into false). nil otherwise.
func (rd Reader) errClaimPassed(en env, sc keys.Scope, of ClaimOf) *claim {
	if len(en.blocks) == 0 {
		return nil
	}
	top := en.blocks[len(en.blocks)-1]
	for k := top.idx - 1; k >= 0; k-- {
		ifs, ok := top.list[k].(*ast.IfStmt)
		if !ok || len(ifs.Body.List) == 0 || !defuse.EndsBlock(ifs.Body.List[len(ifs.Body.List)-1]) {
			continue
		}
		at := en
		at.blocks = append(append([]envBlock(nil), en.blocks[:len(en.blocks)-1]...), envBlock{list: top.list, idx: k, end: top.end})
		at.init = ifs.Init
		if cl := rd.errClaimFailed(ifs.Cond, at, sc, of); cl != nil {
			return cl
		}
	}
	return nil
}

// boolResult reports whether one of sig's results is a bool.
func boolResult(sig *types.Signature) bool {
	for i := 0; i < sig.Results().Len(); i++ {
		if types.Identical(sig.Results().At(i).Type().Underlying(), types.Typ[types.Bool]) {
			return true
		}
	}
	return false
}

// swallowsErr reports whether body takes one error for none: an `if errors.Is(err, ...)`
// or `errors.As` whose body returns nil as result i (a failed condition turned into false,
// nil). Such a function's error does not say whether its claim was made.
func (rd Reader) swallowsErr(body *ast.BlockStmt, i int) bool {
	found := false
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			call, ok := ast.Unparen(x.Cond).(*ast.CallExpr)
			if !ok || len(x.Body.List) == 0 {
				return true
			}
			if rd.errorsTest(call) {
				ret, ok := x.Body.List[len(x.Body.List)-1].(*ast.ReturnStmt)
				found = found || ok && i < len(ret.Results) && rd.isNil(ret.Results[i])
			}
		}
		return !found
	})
	return found
}

// Claims that fail with an error: a conditional put (a DynamoDB PutItem whose condition has
// attribute_not_exists) changes nothing the second time and says so with its error
// (ConditionalCheckFailedException), as does a helper that returns that error, or a sentinel
// of its own for it (journal.ErrAlreadyClaimed), to its callers.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/keys"
	"github.com/chokaq/idemlint/internal/sinks/params"
)

// errClaimFailed finds the claim that fails with an error whose failure makes cond true:
// err != nil, errors.Is(err, ErrAlreadyClaimed), errors.As(err, &conditionFailed), where err
// is the error result of a conditional put or of a helper whose error reports a claim.
// Which error errors.Is names is not read: the code that checks for one particular error
// also leaves on the others (if err != nil after it), or it makes the claim on purpose
// with its error for that.
func (rd Reader) errClaimFailed(cond ast.Expr, en env, sc keys.Scope, of ClaimOf) *claim {
	switch c := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LOR:
			if cl := rd.errClaimFailed(c.X, en, sc, of); cl != nil {
				return cl
			}
			return rd.errClaimFailed(c.Y, en, sc, of)
		case token.NEQ:
			if rd.isNil(c.Y) {
				return rd.anyErrClaim(c.X, en, sc, of)
			}
			if rd.isNil(c.X) {
				return rd.anyErrClaim(c.Y, en, sc, of)
			}
		}
	case *ast.CallExpr:
		if rd.errorsTest(c) {
			return rd.errClaim(c.Args[0], en, sc, of)
		}
	}
	return nil
}

// anyErrClaim returns the claim that any non-nil error e says failed: one that fails with
// an error (errClaim), or one whose RETURNING row is missing (sqlNoRows: a conditional
// UPDATE ... RETURNING, scanned, that found no row). `if err != nil { return ... }` leaves
// on the no-rows error as on any other, so what follows runs only when the row was returned:
// the claim guards it. The job fails on that repeat (retried until it is dead) instead of
// repeating the effects; a check of the no-rows error that returns nil ends it cleanly.
func (rd Reader) anyErrClaim(e ast.Expr, en env, sc keys.Scope, of ClaimOf) *claim {
	if cl := rd.errClaim(e, en, sc, of); cl != nil {
		return cl
	}
	return rd.sqlNoRows(e, en, of)
}

// errorsTest reports whether call is errors.Is(err, target) or errors.As(err, &target).
func (rd Reader) errorsTest(call *ast.CallExpr) bool {
	fn := callee(rd.info(), call)
	return fn != nil && (fn.FullName() == "errors.Is" || fn.FullName() == "errors.As") && len(call.Args) == 2
}

// errClaim returns the claim whose error e is: the last result of a modelled gate made by
// a condition its params carry (Gate.Params), or of a helper whose error reports a claim.
func (rd Reader) errClaim(e ast.Expr, en env, sc keys.Scope, of ClaimOf) *claim {
	x, idx := rd.resolve(e, en)
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn := callee(rd.info(), call)
	if fn == nil {
		return nil
	}
	res := fn.Signature().Results()
	if res.Len() == 0 || idx != res.Len()-1 || !isError(res.At(idx).Type()) {
		return nil
	}
	if g := rd.gateOf(fn); g != nil {
		if g.Params == 0 {
			return nil
		}
		p := defuse.ArgAt(call, g.Params-1)
		if !rd.params().Conditioned(p) || !rd.params().ConditionTestsWrite(p) {
			return nil
		}
		return &claim{at: call.Pos(), what: g.What}
	}
	if cl := rd.helperClaim(call, idx, effect.ReadErr, of); cl != nil {
		return cl
	}
	return rd.runnerClaim(call, sc, of)
}

// gateOf returns the claim model of fn: its own, or, for a method of an interface of the
// application's own that mirrors a modelled client (a scopeAPI interface with the
// UpdateItem of *dynamodb.Client, there to be mocked), that of the client's method of the
// same name whose params argument is of the client's package. nil when there is none.
func (rd Reader) gateOf(fn *types.Func) *model.Gate {
	if g := rd.Models.Of(fn.Origin()).Gate; g != nil {
		return g
	}
	recv := fn.Signature().Recv()
	if recv == nil || !types.IsInterface(recv.Type()) {
		return nil
	}
	for _, g := range rd.Models.Index.MethodGates(fn.Name()) {
		ps := fn.Signature().Params()
		if g.Params > ps.Len() {
			continue
		}
		if named, ok := defuse.Deref(ps.At(g.Params - 1).Type()).(*types.Named); ok && named.Obj().Pkg() != nil &&
			model.Normalize(named.Obj().Pkg().Path()) == model.Normalize(model.PackageOf(g.Func)) {
			return g
		}
	}
	return nil
}

// runnerClaim returns the claim of a call that runs a function literal it is given and
// returns that literal's error (a transaction runner, repo.WithTransaction(ctx, func(tx
// *sqlx.Tx) error { ... })), when the literal's error reports a claim its body makes (a
// locked row's state checked with a return of an error); nil otherwise. That the call
// returns the literal's error is taken, not read: runners do.
func (rd Reader) runnerClaim(call *ast.CallExpr, sc keys.Scope, of ClaimOf) *claim {
	for _, a := range call.Args {
		lit, ok := ast.Unparen(a).(*ast.FuncLit)
		if !ok {
			continue
		}
		sig, ok := rd.info().TypeOf(lit).(*types.Signature)
		if !ok {
			continue
		}
		if cl := rd.ReturnedClaim(lit.Body, sig, sc, of); cl != nil && cl.Read == effect.ReadErr {
			what := cl.What + " in the literal"
			if fn := callee(rd.info(), call); fn != nil {
				what = cl.What + " in " + fn.Name() + "'s literal"
			}
			return &claim{at: call.Pos(), what: what}
		}
	}
	return nil
}

// returnedErrClaim reports whether ifs leaves with a non-nil error in result i when a claim
// failing with an error failed: `if err != nil { return fmt.Errorf("...: %w", ErrTaken) }`
// after a conditional put. The function's error result then reports the claim.
func (rd Reader) returnedErrClaim(body *ast.BlockStmt, ifs *ast.IfStmt, i int, en env, sc keys.Scope, of ClaimOf, locks map[*types.Var]*lockRead) *claim {
	if len(ifs.Body.List) == 0 {
		return nil
	}
	ret, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt)
	if !ok || i >= len(ret.Results) || rd.isNil(ret.Results[i]) {
		return nil
	}
	if cl := rd.errClaimFailed(ifs.Cond, en, sc, of); cl != nil {
		return cl
	}
	// Any other gate whose failure returns an error (a state checked on a locked row, a
	// SETNX refused) reports the claim the same way.
	if g := rd.gateCheck(body, ifs, en.end, en, sc, of, locks); g != nil && g.Why == "" && g.Weak == "" && !g.Duplicate {
		return &claim{at: ifs.Pos(), what: g.What}
	}
	return nil
}

// errorResult returns the index of sig's last result when it is an error, or -1.
func errorResult(sig *types.Signature) int {
	n := sig.Results().Len()
	if n == 0 || !isError(sig.Results().At(n-1).Type()) {
		return -1
	}
	return n - 1
}

// params is the reader of provider params (conditions, update expressions) over the same
// index and models.
func (rd Reader) params() params.Reader { return params.Reader{Defs: rd.Defs, Models: rd.Models} }

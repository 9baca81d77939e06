// Package gates finds the claims a function checks with an early return, which guard the
// effects after them as the runtime middleware's claim does: a modelled claim (a Redis
// SETNX), an SQL statement that changes no row the second time, a row locked FOR UPDATE on
// a transaction and written in it, a duplicate-key error taken as done, a lookup by the
// job's key whose finding (or status, the one the code writes) ends the job, a write of
// what such a lookup did not find (a set difference), a claim a function literal makes and
// carries out in a flag its caller checks, a record's state tested and written on its row
// before the effects (rowflags.go). It also reads what a
// helper's result says of a claim its body makes (ReturnedClaim), for its callers' gates.
//
// Its input is a Reader (the package's def-use index, the models, the file set for
// positions) and, for each body, the keys.Scope it is judged in and a ClaimOf; its output is
// Gate values and effect.Claim values. It reports nothing and keeps nothing between calls.
package gates

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// Gates returns the gates checked in body (not in nested literals, which are functions of
// their own), judged in scope sc; of says which functions return a claim.
func (rd Reader) Gates(body *ast.BlockStmt, sc keys.Scope, of ClaimOf) []*Gate {
	var gates []*Gate
	locks := rd.lockScans(body, sc, of)
	w := gateWalk{visit: func(st ast.Stmt, en env) {
		if g := rd.rowsGate(st, en, of); g != nil {
			gates = append(gates, g)
		}
		if rs, ok := st.(*ast.RangeStmt); ok {
			gates = append(gates, rd.listSearchGates(body, rs, en, sc)...)
			return
		}
		if sw, ok := st.(*ast.SwitchStmt); ok {
			en.init = sw.Init
			for _, ifs := range caseChecks(sw) {
				if g := rd.gateCheck(body, ifs, rd.guardedEnd(en), en, sc, of, locks); g != nil {
					gates = append(gates, g)
					break
				}
			}
			return
		}
		ifs, ok := st.(*ast.IfStmt)
		if !ok {
			return
		}
		en.init = ifs.Init
		if g := rd.gateCheck(body, ifs, rd.guardedEnd(en), en, sc, of, locks); g != nil {
			gates = append(gates, g)
		} else if elif := rd.afterErrorTest(ifs); elif != nil {
			// if err != nil { log(err) } else if dup { return nil }: the check after the
			// claim's error test guards what follows the chain, as it would standing alone.
			if g := rd.gateCheck(body, elif, rd.guardedEnd(en), en, sc, of, locks); g != nil {
				gates = append(gates, g)
			}
		}
		if g := rd.duplicateCheck(ifs, en); g != nil {
			gates = append(gates, g)
		}
		if g := rd.statusTxGate(body, ifs, en, sc); g != nil {
			gates = append(gates, g)
		}
		if g := rd.absentGate(body, ifs, en, sc); g != nil {
			gates = append(gates, g)
		}
		if g := rd.createdRowGate(body, ifs, en); g != nil {
			gates = append(gates, g)
		}
		if g := rd.vetoGate(body, ifs, en); g != nil {
			gates = append(gates, g)
		}
		gates = append(gates, rd.statusBranchGates(body, ifs, en, sc)...)
		if g := rd.differenceGate(ifs, sc); g != nil {
			gates = append(gates, g)
		}
		if g := rd.affirmedGate(ifs, en, sc, of); g != nil {
			gates = append(gates, g)
		}
		if g := rd.flagGate(body, ifs, rd.guardedEnd(en), sc, of); g != nil {
			gates = append(gates, g)
		}
		if g := rd.rowFlagGate(body, ifs, sc); g != nil {
			gates = append(gates, g)
		}
	}}
	w.block(body.List, body.Rbrace)
	if g := rd.sweptRowGate(body, sc); g != nil {
		gates = append(gates, g)
	}
	return append(gates, rd.correlatedGates(body, gates)...)
}

// afterErrorTest returns the else-if of an if statement that tests an error (err != nil),
// when it is the chain's last branch (if err != nil { ... } else if dup { return nil }), or
// nil. What follows the chain runs only past that else-if's test, or when the error was
// set: a claim that failed with an error (its store down) lets the effects run, the code's
// own choice (docs/checks.md).
func (rd Reader) afterErrorTest(ifs *ast.IfStmt) *ast.IfStmt {
	elif, ok := ifs.Else.(*ast.IfStmt)
	if !ok || elif.Else != nil || elif.Init != nil {
		return nil
	}
	be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ || !rd.isNil(be.Y) || !isError(rd.info().TypeOf(be.X)) {
		return nil
	}
	return elif
}

// gateCheck returns the gate an if statement checks, when its condition is true if the
// claim failed (!ok, err != nil || !ok, ok == false, n == 0, tag.RowsAffected() == 0,
// errors.Is(err, pgx.ErrNoRows), err != nil after a conditional put) or it tests a row locked on a transaction, and its body
// ends in a return (or, in a loop, a continue or break); nil otherwise. A gate whose result
// is ignored, or whose failure does not leave, guards nothing: the effects after it run on
// every delivery.
func (rd Reader) gateCheck(body *ast.BlockStmt, ifs *ast.IfStmt, end token.Pos, en env, sc keys.Scope, of ClaimOf, locks map[*types.Var]*lockRead) *Gate {
	if len(ifs.Body.List) == 0 {
		return nil
	}
	if !defuse.EndsBlock(ifs.Body.List[len(ifs.Body.List)-1]) {
		return nil
	}
	cond := rd.withoutNilCheck(ifs.Cond)
	if call, g := rd.claimFailed(cond); g != nil {
		return rd.modelGate(call, g, ifs.End(), end, sc, func(tx *types.Var) []*ast.CallExpr { return rd.callsOnTx(tx, en) })
	}
	cl := rd.sqlClaimFailed(cond, en, of)
	if cl == nil {
		cl = rd.errClaimFailed(cond, en, sc, of)
	}
	if cl == nil {
		if g := rd.lockGate(ifs, end, en, sc, locks); g != nil {
			return g
		}
		if g := rd.existenceGate(ifs, end, en, sc); g != nil {
			return g
		}
		if g := rd.containsGate(ifs, end, sc); g != nil {
			return g
		}
		if g := rd.statusGate(body, ifs, end, sc); g != nil {
			return g
		}
		return rd.transitionGate(body, ifs, end, en, sc)
	}
	g := &Gate{Start: ifs.End(), End: end, What: cl.what + " gate at " + rd.shortPos(cl.at), Why: cl.why, Weak: cl.weak}
	if cl.tx != nil {
		g.OnTx = positions(rd.callsOnTx(cl.tx, en))
	}
	return g
}

// withoutNilCheck returns, for err != nil && errors.Is(err, target) (or errors.As, in either
// order, of the same error), the errors test alone: it is false for a nil error, so the nil
// check beside it changes nothing. cond itself otherwise: beside any other test, the
// condition can be false when the claim failed.
func (rd Reader) withoutNilCheck(cond ast.Expr) ast.Expr {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.LAND {
		return cond
	}
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		ne, ok := ast.Unparen(pair[0]).(*ast.BinaryExpr)
		if !ok || ne.Op != token.NEQ || !rd.isNil(ne.Y) {
			continue
		}
		test, ok := ast.Unparen(pair[1]).(*ast.CallExpr)
		if !ok || !rd.errorsTest(test) {
			continue
		}
		if v := rd.local(ne.X); v != nil && v == rd.local(test.Args[0]) {
			return test
		}
	}
	return cond
}

// claimFailed finds the gate call whose failure makes cond true.
func (rd Reader) claimFailed(cond ast.Expr) (*ast.CallExpr, *model.Gate) {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return rd.claimResult(c.X)
		}
	case *ast.SelectorExpr: // res.UniqueSkippedAsDuplicate
		return rd.claimDuplicate(c)
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LAND: // res != nil && res.UniqueSkippedAsDuplicate
			if x := rd.withoutNonNil(c); x != nil {
				return rd.claimFailed(x)
			}
		case token.LOR: // err != nil || !ok: true whenever !ok is
			if call, g := rd.claimFailed(c.X); g != nil {
				return call, g
			}
			return rd.claimFailed(c.Y)
		case token.EQL: // ok == false; n == 0 for a claim that counts what it added (SADD)
			if rd.Defs.IsFalse(c.Y) || rd.isZero(c.Y) {
				return rd.claimResult(c.X)
			}
			if rd.Defs.IsFalse(c.X) || rd.isZero(c.X) {
				return rd.claimResult(c.Y)
			}
		}
	}
	return nil, nil
}

// isZero reports whether e is the constant 0.
func (rd Reader) isZero(e ast.Expr) bool {
	tv, ok := rd.info().Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
}

// claimResult finds the gate call whose result e is: the call itself, its command's Val()
// or Result(), or a local variable assigned once from one of those (ok, err := ....Result()).
func (rd Reader) claimResult(e ast.Expr) (*ast.CallExpr, *model.Gate) {
	call, g := rd.gateCall(e)
	if g != nil && g.DuplicateField != "" {
		return nil, nil // read only through its field (claimDuplicate)
	}
	return call, g
}

// claimDuplicate finds the gate call whose result's duplicate field sel reads
// (res.UniqueSkippedAsDuplicate, model.Gate.DuplicateField): true when the claim failed.
func (rd Reader) claimDuplicate(sel *ast.SelectorExpr) (*ast.CallExpr, *model.Gate) {
	call, g := rd.gateCall(sel.X)
	if g == nil || g.DuplicateField != sel.Sel.Name {
		return nil, nil
	}
	return call, g
}

// withoutNonNil returns, for x != nil && y (either order), y: a result that is nil only
// with an error, tested beside its field. nil otherwise.
func (rd Reader) withoutNonNil(be *ast.BinaryExpr) ast.Expr {
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		if ne, ok := ast.Unparen(pair[0]).(*ast.BinaryExpr); ok && ne.Op == token.NEQ && rd.isNil(ne.Y) {
			return pair[1]
		}
	}
	return nil
}

// gateCall finds the gate call whose result e is: the call itself, its command's Val()
// or Result(), or a local variable assigned once from one of those.
func (rd Reader) gateCall(e ast.Expr) (*ast.CallExpr, *model.Gate) {
	var call *ast.CallExpr
	var gate *model.Gate
	rd.Defs.Find(e, defuse.Value, func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		if fn := callee(rd.info(), c); fn != nil && rd.Models.Of(fn.Origin()).Gate != nil {
			call, gate = c, rd.Models.Of(fn.Origin()).Gate
			return true
		}
		return false
	}, defuse.Through(func(x ast.Expr) []ast.Expr {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return nil
		}
		fn := callee(rd.info(), c)
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && fn != nil && fn.Signature().Recv() != nil &&
			(fn.Name() == "Val" || fn.Name() == "Result") {
			return []ast.Expr{sel.X} // the command whose result it reads
		}
		return nil
	}))
	return call, gate
}

// modelGate is the gate of a modelled claim call over [start, end), judged by its key
// arguments. A claim made on a transaction (model.Gate.TxArg) holds only until it commits:
// it guards only the calls onTx finds made on that transaction, and none when the
// transaction is not a local variable.
func (rd Reader) modelGate(call *ast.CallExpr, g *model.Gate, start, end token.Pos, sc keys.Scope, onTx func(*types.Var) []*ast.CallExpr) *Gate {
	gt := &Gate{Start: start, End: end, What: g.What + " gate at " + rd.shortPos(call.Pos()), Why: rd.gateKeyProblem(call, g, sc)}
	if g.TxArg != 0 {
		gt.OnTx = map[token.Pos]bool{}
		if tx := rd.local(defuse.ArgAt(call, g.TxArg-1)); tx != nil {
			gt.OnTx = positions(onTx(tx))
		}
	}
	return gt
}

// gateKeyProblem says why a gate's key does not identify the job, with the judgement of the
// sinks' keys; "" for a stable key.
func (rd Reader) gateKeyProblem(call *ast.CallExpr, g *model.Gate, sc keys.Scope) string {
	var parts []ast.Expr
	for _, i := range g.KeyArgs {
		k := defuse.ArgAt(call, i)
		if k == nil {
			return "its key is not among the call's arguments"
		}
		parts = append(parts, k)
	}
	v := rd.keys().Judge(parts, sc)
	if v.Problem == keys.Stable {
		return ""
	}
	return "its key " + v.Because("every job shares one claim, so the first job turns the others away")
}

// Gates: a claim checked in a function's body (a Redis SETNX whose false result makes the
// function return), which the runtime middleware's claim resembles: the effects after the
// check run only when this delivery made the claim.

package sinks

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// Gate is a claim checked in a function's body. The effects after the check, up to the end
// of the block that holds it, run only when this delivery made the claim.
type Gate struct {
	Start, End token.Pos // the guarded region: from the end of the check to the end of its block
	What       string    // "Redis SETNX gate at h.go:12"
	// Why says why the gate guards nothing (a key that changes on every retry, a constant
	// key); "" when its key is stable.
	Why string
	// OnTx, for a gate read on a database transaction (a conditional UPDATE made on it, a
	// row locked by SELECT ... FOR UPDATE and written on it), holds the calls of the region
	// made on that transaction: the gate guards only them, and only what commits with the
	// transaction (until the commit, a crash undoes the claim, so an external effect made
	// before it runs again). nil for a gate that commits on its own (SETNX, a statement on a
	// pool).
	OnTx map[token.Pos]bool
	// Duplicate marks the check of a call's unique-violation error taken as success: the
	// INSERT the call makes is the unique-constraint pattern. Start is the call.
	Duplicate bool
}

// Covers reports whether pos is in the gate's guarded region.
func (g *Gate) Covers(pos token.Pos) bool {
	if g.OnTx != nil {
		return g.OnTx[pos]
	}
	return g.Start <= pos && pos < g.End
}

// Gates returns the gates checked in body (not in nested literals, which are functions of
// their own), judged in scope sc; of says which functions return a claim.
func (j *Judge) Gates(body *ast.BlockStmt, sc Scope, of ClaimOf) []*Gate {
	var gates []*Gate
	locks := j.lockScans(body)
	w := gateWalk{visit: func(st ast.Stmt, en env) {
		ifs, ok := st.(*ast.IfStmt)
		if !ok {
			return
		}
		en.init = ifs.Init
		if g := j.gateCheck(ifs, en.end, en, sc, of, locks); g != nil {
			gates = append(gates, g)
		}
		if g := j.duplicateCheck(ifs, en); g != nil {
			gates = append(gates, g)
		}
	}}
	w.block(body.List, body.Rbrace)
	return gates
}

// gateWalk visits each statement of a body (not of nested literals, which are functions of
// their own) with the statement lists that enclose it.
type gateWalk struct {
	visit func(st ast.Stmt, en env)
	stack []envBlock
}

func (w *gateWalk) block(list []ast.Stmt, end token.Pos) {
	w.stack = append(w.stack, envBlock{list: list})
	top := len(w.stack) - 1
	for i, st := range list {
		w.stack[top].idx = i
		// The visit reads the stack at once and keeps none of it: no copy.
		w.visit(st, env{blocks: w.stack, end: end})
		w.nested(st)
	}
	w.stack = w.stack[:top]
}

// nested visits the blocks inside st, not inside function literals.
func (w *gateWalk) nested(st ast.Stmt) {
	ast.Inspect(st, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			w.block(x.List, x.Rbrace)
			return false
		case *ast.CaseClause:
			w.block(x.Body, x.End())
			return false
		case *ast.CommClause:
			w.block(x.Body, x.End())
			return false
		}
		return true
	})
}

// gateCheck returns the gate an if statement checks, when its condition is true if the
// claim failed (!ok, err != nil || !ok, ok == false, n == 0, tag.RowsAffected() == 0,
// errors.Is(err, pgx.ErrNoRows)) or it tests a row locked on a transaction, and its body
// ends in a return (or, in a loop, a continue or break); nil otherwise. A gate whose result
// is ignored, or whose failure does not leave, guards nothing: the effects after it run on
// every delivery.
func (j *Judge) gateCheck(ifs *ast.IfStmt, end token.Pos, en env, sc Scope, of ClaimOf, locks map[*types.Var]*lockRead) *Gate {
	if len(ifs.Body.List) == 0 {
		return nil
	}
	if !leaves(ifs.Body.List[len(ifs.Body.List)-1]) {
		return nil
	}
	if call, g := j.claimFailed(ifs.Cond); g != nil {
		return &Gate{
			Start: ifs.End(),
			End:   end,
			What:  g.What + " gate at " + j.shortPos(call.Pos()),
			Why:   j.gateKeyProblem(call, g, sc),
		}
	}
	cl := j.sqlClaimFailed(ifs.Cond, en, of)
	if cl == nil {
		return j.lockGate(ifs, end, en, locks)
	}
	g := &Gate{Start: ifs.End(), End: end, What: cl.what + " gate at " + j.shortPos(cl.at), Why: cl.why}
	if cl.tx != nil {
		g.OnTx = positions(j.callsOnTx(cl.tx, en))
	}
	return g
}

// leaves reports whether st leaves the rest of the block it ends (and of every block around
// it up to the function or loop body): a return, or a continue or break, which in a receive
// loop skips the rest of the message's handling as a return skips the rest of a handler.
func leaves(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok == token.CONTINUE || st.Tok == token.BREAK
	}
	return false
}

// claimFailed finds the gate call whose failure makes cond true.
func (j *Judge) claimFailed(cond ast.Expr) (*ast.CallExpr, *model.Gate) {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return j.claimResult(c.X, 0)
		}
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LOR: // err != nil || !ok: true whenever !ok is
			if call, g := j.claimFailed(c.X); g != nil {
				return call, g
			}
			return j.claimFailed(c.Y)
		case token.EQL: // ok == false; n == 0 for a claim that counts what it added (SADD)
			if j.Defs.IsFalse(c.Y) || j.isZero(c.Y) {
				return j.claimResult(c.X, 0)
			}
			if j.Defs.IsFalse(c.X) || j.isZero(c.X) {
				return j.claimResult(c.Y, 0)
			}
		}
	}
	return nil, nil
}

// isZero reports whether e is the constant 0.
func (j *Judge) isZero(e ast.Expr) bool {
	tv, ok := j.info().Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
}

// claimResult finds the gate call whose result e is: the call itself, its command's Val()
// or Result(), or a local variable assigned once from one of those (ok, err := ....Result()).
func (j *Judge) claimResult(e ast.Expr, depth int) (*ast.CallExpr, *model.Gate) {
	if depth > defuse.MaxDepth {
		return nil, nil
	}
	info := j.info()
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok || v.IsField() {
			return nil, nil
		}
		if d := j.Defs.Def(v); d != nil {
			return j.claimResult(d, depth+1)
		}
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(info, x).(*types.Func)
		if !ok {
			return nil, nil
		}
		if g := j.Models.Of(fn.Origin()).Gate; g != nil {
			return x, g
		}
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil &&
			(fn.Name() == "Val" || fn.Name() == "Result") {
			return j.claimResult(sel.X, depth+1)
		}
	}
	return nil, nil
}

// gateKeyProblem says why a gate's key does not identify the job, with the judgement of the
// sinks' keys; "" for a stable key.
func (j *Judge) gateKeyProblem(call *ast.CallExpr, g *model.Gate, sc Scope) string {
	var keys []ast.Expr
	for _, i := range g.KeyArgs {
		k := defuse.ArgAt(call, i)
		if k == nil {
			return "its key is not among the call's arguments"
		}
		keys = append(keys, k)
	}
	v := j.JudgeKeys(keys, sc)
	if v.Problem == KeyStable {
		return ""
	}
	return "its key " + v.Because("every job shares one claim, so the first job turns the others away")
}

// Guard applies the gate to an effect reached after it (or, for a duplicate check, made
// by the call whose error it checks). A stable gate answers the key: the
// effect is Claimed, and enforcement stays open as for the runtime middleware's claim (the
// key is not enforced by the system that owns the effect; a crash between the claim and the
// effect loses it, and the gate turns the redelivery away). A gate whose key is not stable
// leaves the effect as it was, saying why.
func (g *Gate) Guard(e effect.Effect) effect.Effect {
	if g.Duplicate {
		return g.duplicate(e)
	}
	if g.OnTx != nil {
		return g.committed(e)
	}
	if e.State >= effect.Claimed {
		return e
	}
	if g.Why != "" {
		e.Detail += "; the " + g.What + " guards nothing: " + g.Why
		return e
	}
	e.State = effect.Claimed
	e.Detail += "; the " + g.What + " turns a redelivery away, but a crash between the claim and this effect loses it (at most once)"
	return e
}

// Gates: a claim checked in a function's body (a Redis SETNX whose false result makes the
// function return), which the runtime middleware's claim resembles: the effects after the
// check run only when this delivery made the claim.

package sinks

import (
	"go/ast"
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
}

// Covers reports whether pos is in the gate's guarded region.
func (g *Gate) Covers(pos token.Pos) bool { return g.Start <= pos && pos < g.End }

// Gates returns the gates checked in body (not in nested literals, which are functions of
// their own), judged in scope sc.
func (j *Judge) Gates(body *ast.BlockStmt, sc Scope) []*Gate {
	var gates []*Gate
	ast.Inspect(body, func(x ast.Node) bool {
		var list []ast.Stmt
		var end token.Pos
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			list, end = x.List, x.Rbrace
		case *ast.CaseClause:
			list, end = x.Body, x.End()
		case *ast.CommClause:
			list, end = x.Body, x.End()
		default:
			return true
		}
		for _, st := range list {
			if ifs, ok := st.(*ast.IfStmt); ok {
				if g := j.gateCheck(ifs, end, sc); g != nil {
					gates = append(gates, g)
				}
			}
		}
		return true
	})
	return gates
}

// gateCheck returns the gate an if statement checks, when its condition is true if the
// claim failed (!ok, err != nil || !ok, ok == false) and its body ends in a return; nil
// otherwise. A gate whose result is ignored, or whose failure does not return, guards
// nothing: the effects after it run on every delivery.
func (j *Judge) gateCheck(ifs *ast.IfStmt, end token.Pos, sc Scope) *Gate {
	if len(ifs.Body.List) == 0 {
		return nil
	}
	if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ok {
		return nil
	}
	call, g := j.claimFailed(ifs.Cond)
	if g == nil {
		return nil
	}
	return &Gate{
		Start: ifs.End(),
		End:   end,
		What:  g.What + " gate at " + j.shortPos(call.Pos()),
		Why:   j.gateKeyProblem(call, g, sc),
	}
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
		case token.EQL:
			if j.Defs.IsFalse(c.Y) {
				return j.claimResult(c.X, 0)
			}
			if j.Defs.IsFalse(c.X) {
				return j.claimResult(c.Y, 0)
			}
		}
	}
	return nil, nil
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

// Guard applies the gate to an effect reached after it. A stable gate answers the key: the
// effect is Claimed, and enforcement stays open as for the runtime middleware's claim (the
// key is not enforced by the system that owns the effect; a crash between the claim and the
// effect loses it, and the gate turns the redelivery away). A gate whose key is not stable
// leaves the effect as it was, saying why.
func (g *Gate) Guard(e effect.Effect) effect.Effect {
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

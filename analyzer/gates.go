package analyzer

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// gate is a claim checked in a function's body: a modelled gate call (Redis SETNX) whose
// false result makes the function return. The effects after the check, up to the end of the
// block that holds it, run only when this delivery made the claim.
type gate struct {
	start, end token.Pos // the guarded region: from the end of the check to the end of its block
	what       string    // "Redis SETNX gate at h.go:12"
	// why says why the gate guards nothing (a key that changes on every retry, a constant
	// key); "" when its key is stable.
	why string
}

// findGates records the gates checked in n's body (not in nested literals, which are nodes
// of their own) and attaches the best one covering each site: a gate with a stable key
// before one without.
func (a *analysis_) findGates(n *node) {
	ast.Inspect(n.body, func(x ast.Node) bool {
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
				if g := a.gateCheck(ifs, end); g != nil {
					n.gates = append(n.gates, g)
				}
			}
		}
		return true
	})
	if len(n.gates) == 0 {
		return
	}
	for i := range n.sites {
		s := &n.sites[i]
		for _, g := range n.gates {
			if s.pos < g.start || s.pos >= g.end {
				continue
			}
			if s.gate == nil || (s.gate.why != "" && g.why == "") {
				s.gate = g
			}
		}
	}
}

// gateCheck returns the gate an if statement checks, when its condition is true if the
// claim failed (!ok, err != nil || !ok, ok == false) and its body ends in a return; nil
// otherwise. A gate whose result is ignored, or whose failure does not return, guards
// nothing: the effects after it run on every delivery.
func (a *analysis_) gateCheck(ifs *ast.IfStmt, end token.Pos) *gate {
	if len(ifs.Body.List) == 0 {
		return nil
	}
	if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ok {
		return nil
	}
	call, g := a.claimFailed(ifs.Cond)
	if g == nil {
		return nil
	}
	return &gate{
		start: ifs.End(),
		end:   end,
		what:  g.What + " gate at " + a.shortPos(call.Pos()),
		why:   a.gateKeyProblem(call, g),
	}
}

// claimFailed finds the gate call whose failure makes cond true.
func (a *analysis_) claimFailed(cond ast.Expr) (*ast.CallExpr, *model.Gate) {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return a.claimResult(c.X, 0)
		}
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LOR: // err != nil || !ok: true whenever !ok is
			if call, g := a.claimFailed(c.X); g != nil {
				return call, g
			}
			return a.claimFailed(c.Y)
		case token.EQL:
			if a.isFalse(c.Y) {
				return a.claimResult(c.X, 0)
			}
			if a.isFalse(c.X) {
				return a.claimResult(c.Y, 0)
			}
		}
	}
	return nil, nil
}

// claimResult finds the gate call whose result e is: the call itself, its command's Val()
// or Result(), or a local variable assigned once from one of those (ok, err := ....Result()).
func (a *analysis_) claimResult(e ast.Expr, depth int) (*ast.CallExpr, *model.Gate) {
	if depth > 4 {
		return nil, nil
	}
	info := a.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok || v.IsField() {
			return nil, nil
		}
		if d := a.def(v); d != nil {
			return a.claimResult(d, depth+1)
		}
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(info, x).(*types.Func)
		if !ok {
			return nil, nil
		}
		if g := a.entry(fn.Origin()).Gate; g != nil {
			return x, g
		}
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil &&
			(fn.Name() == "Val" || fn.Name() == "Result") {
			return a.claimResult(sel.X, depth+1)
		}
	}
	return nil, nil
}

func (a *analysis_) isFalse(e ast.Expr) bool {
	tv, ok := a.pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}

// gateKeyProblem says why a gate's key does not identify the job, with the checks of the
// sinks' keys: made from a random or clock source, a constant, or from nothing the job
// carries. "" for a stable key.
func (a *analysis_) gateKeyProblem(call *ast.CallExpr, g *model.Gate) string {
	var keys []ast.Expr
	for _, i := range g.KeyArgs {
		k := argAt(call, i)
		if k == nil {
			return "its key is not among the call's arguments"
		}
		keys = append(keys, k)
	}
	for _, k := range keys {
		if src := a.unstableSource(k, 0); src != "" {
			return "its key changes on every retry (made from " + src + ")"
		}
	}
	constant, fromInput := true, false
	for _, k := range keys {
		constant = constant && a.constantKey(k)
		fromInput = fromInput || a.keyFromInput(k)
	}
	if constant {
		return "its key is a constant: every job shares one claim, so the first job turns the others away"
	}
	if !fromInput {
		return "its key is made from nothing the job carries (no parameter of " + a.current.name + " reaches it)"
	}
	return ""
}

// guard applies the gate to an effect reached after it. A stable gate answers the key: the
// effect is Claimed, and enforcement stays open as for the runtime middleware's claim (the
// key is not enforced by the system that owns the effect; a crash between the claim and the
// effect loses it, and the gate turns the redelivery away). A gate whose key is not stable
// leaves the effect as it was, saying why.
func (g *gate) guard(e effect.Effect) effect.Effect {
	if e.State >= effect.Claimed {
		return e
	}
	if g.why != "" {
		e.Detail += "; the " + g.what + " guards nothing: " + g.why
		return e
	}
	e.State = effect.Claimed
	e.Detail += "; the " + g.what + " turns a redelivery away, but a crash between the claim and this effect loses it (at most once)"
	return e
}

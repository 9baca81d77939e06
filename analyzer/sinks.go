// Sinks: how one call of a modelled sink is judged, by its shape; SQL text, batches and
// query-builder chains here, the other shapes in sinks_http.go, params.go, updates.go and
// keys.go.

package analyzer

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sqlstmt"
	"github.com/chokaq/idemlint/internal/strval"
)

// evalSink decides what one call of a sink does: which effect, how protected, and why.
// It returns nil when the call has no effect worth tracking (a read, a GET).
func (a *analysis_) evalSink(n *node, s *model.Sink, fn *types.Func, call *ast.CallExpr) *effect.Effect {
	mk := func(state effect.State, detail string) *effect.Effect {
		return &effect.Effect{Kind: s.Kind, State: state, Detail: detail, Tx: a.txMode(s, call),
			Chain: []effect.Hop{{Func: funcName(fn, nil), Pos: a.shortPos(call.Pos())}}}
	}
	switch s.Shape {
	case model.SQLExec, model.SQLQuery:
		arg := argAt(call, s.Arg)
		if arg == nil {
			return nil
		}
		return a.sqlEffect(mk, a.text(arg), s.Shape == model.SQLQuery)
	case model.SQLPrepared:
		return a.sqlEffect(mk, a.preparedText(call), false)
	case model.SQLBatch:
		return a.batchEffect(mk, argAt(call, s.Arg))
	case model.SQLCopy:
		return mk(effect.Unprotected, "SQL write not safe to repeat: bulk COPY without conflict handling")
	case model.HTTPPost:
		return mk(effect.Unprotected, "HTTP POST without an Idempotency-Key header (this call cannot set one)")
	case model.HTTPDo:
		return a.httpEffect(mk, argAt(call, s.Arg))
	case model.Send:
		return mk(effect.Unprotected, s.Problem())
	case model.ProviderParams:
		return a.providerEffect(mk, s, argAt(call, s.Arg))
	case model.Options:
		return a.optionsEffect(mk, s, call)
	case model.Builder:
		return a.builderEffect(mk, s, call)
	case model.Relative:
		return mk(effect.Unprotected, s.What+" "+fn.Name()+" adds to the stored value: not safe to repeat")
	case model.UpdateExpression:
		return a.updateEffect(mk, s, argAt(call, s.Arg))
	case model.KeyArg:
		key := argAt(call, s.Arg)
		return a.keyedEffect(mk, s, key, key != nil && !a.isEmptyString(key))
	}
	return nil
}

type mkEffect func(effect.State, string) *effect.Effect

// txMode says whether a sink call commits with a database transaction: it is given one
// (River's InsertTx), or its receiver is a modelled transaction or pool type.
func (a *analysis_) txMode(s *model.Sink, call *ast.CallExpr) effect.TxMode {
	if s.InTx {
		return effect.TxIn
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return effect.TxUnknown
	}
	recv, ok := a.pass.TypesInfo.Selections[sel]
	if !ok {
		return effect.TxUnknown
	}
	named, ok := types.Unalias(deref(recv.Recv())).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return effect.TxUnknown
	}
	return a.index.TxMode(named.Obj().Pkg().Path() + "." + named.Obj().Name())
}

func argAt(call *ast.CallExpr, i int) ast.Expr {
	if i < 0 || i >= len(call.Args) {
		return nil
	}
	return call.Args[i]
}

func (a *analysis_) text(e ast.Expr) string {
	return strval.Text(a.pass.TypesInfo, e, a.def)
}

// sqlEffect classifies statement text. query is set for Query*-style calls, which are
// writes only when the text says so.
func (a *analysis_) sqlEffect(mk mkEffect, text string, query bool) *effect.Effect {
	res := sqlstmt.Classify(text)
	switch res.Class {
	case sqlstmt.Read:
		return nil
	case sqlstmt.Unknown:
		if query {
			return nil // an unknown query is far more often a read than a write
		}
		if strings.Trim(text, strval.Hole) == "" {
			return mk(effect.Unprotected, "SQL write not safe to repeat: statement text not known")
		}
		return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason)
	case sqlstmt.NonIdempotent:
		return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason)
	default: // Guarded, Converging
		return mk(effect.Protected, res.Reason)
	}
}

// preparedText finds the text given to Prepare for the statement a call executes on.
func (a *analysis_) preparedText(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return strval.Hole
	}
	v := rootVar(a.pass.TypesInfo, sel.X)
	if v == nil {
		return strval.Hole
	}
	prep, ok := ast.Unparen(a.def(v)).(*ast.CallExpr)
	if !ok {
		return strval.Hole
	}
	if fn, ok := typeutil.Callee(a.pass.TypesInfo, prep).(*types.Func); ok && strings.HasPrefix(fn.Name(), "Prepare") && len(prep.Args) > 0 {
		return a.text(prep.Args[len(prep.Args)-1])
	}
	return strval.Hole
}

// batchEffect classifies the statements queued on a pgx batch (b.Queue(sql, ...)) in view.
func (a *analysis_) batchEffect(mk mkEffect, batch ast.Expr) *effect.Effect {
	v := rootVar(a.pass.TypesInfo, batch)
	var worst *effect.Effect
	found := false
	if v != nil {
		for _, c := range a.callsOn[v] {
			sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
			if sel.Sel.Name != "Queue" || len(c.Args) == 0 {
				continue
			}
			found = true
			e := a.sqlEffect(mk, a.text(c.Args[0]), false)
			if e != nil && (worst == nil || e.Worse(*worst)) {
				worst = e
			}
		}
	}
	if !found {
		return mk(effect.Unprotected, "SQL write not safe to repeat: statements queued on the batch not known")
	}
	return worst
}

func deref(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// chainGuarded reports whether the receiver chain of a builder call (x.A().B().Create(v)),
// followed through local variables, calls a chain guard or builds a guard type's literal.
func (a *analysis_) chainGuarded(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	info := a.pass.TypesInfo
	return a.findInExpr(sel.X, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(info, x).(*types.Func)
			return ok && a.entry(fn).ChainGuard
		case *ast.CompositeLit:
			named, ok := deref(info.TypeOf(x)).(*types.Named)
			return ok && named.Obj().Pkg() != nil && a.index.GuardType(named.Obj().Pkg().Path()+"."+named.Obj().Name())
		}
		return false
	})
}

// findInExpr reports whether match holds for a node of e, or of the expressions assigned to
// the local variables e uses, a few assignments deep: "is the builder this call ends made
// with OnConflict", "was this middleware built with WithRetention".
func (a *analysis_) findInExpr(e ast.Expr, match func(ast.Node) bool) bool {
	found := false
	seen := map[*types.Var]bool{}
	var look func(e ast.Expr, depth int)
	look = func(e ast.Expr, depth int) {
		if found || e == nil || depth > 4 {
			return
		}
		ast.Inspect(e, func(x ast.Node) bool {
			if found {
				return false
			}
			if match(x) {
				found = true
				return false
			}
			if id, ok := x.(*ast.Ident); ok {
				if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok && !v.IsField() && !seen[v] {
					seen[v] = true
					for _, d := range a.defs[v] {
						look(d, depth+1)
					}
					for _, c := range a.fills[v] {
						look(c, depth+1)
					}
				}
			}
			return true
		})
	}
	look(e, 0)
	return found
}

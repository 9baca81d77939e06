// Transaction gates: a row locked by SELECT ... FOR UPDATE on a transaction, checked with an
// early return, and written in the same transaction. A redelivery after the commit reads the
// new state and returns; a crash before the commit leaves nothing. What commits with the
// transaction is safe; an effect the transaction cannot undo (an HTTP call before the
// commit), or a write on another connection, is not.

package sinks

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/effect"
)

// lockRead is a locking read on a transaction whose row was scanned into variables.
type lockRead struct {
	at    token.Pos
	tx    *types.Var
	table string // upper case, "" when not read
}

// lockScans finds the rows a body scans from a locking read on a transaction
// (tx.QueryRow(ctx, "SELECT ... FOR UPDATE", id).Scan(&status)), by the variables filled.
func (j *Judge) lockScans(body *ast.BlockStmt) map[*types.Var]*lockRead {
	var out map[*types.Var]*lockRead
	ast.Inspect(body, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Scan" {
			return true
		}
		lr := j.lockingQuery(sel.X)
		if lr == nil {
			return true
		}
		for _, a := range call.Args {
			if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
				if v := j.Defs.RootVar(u.X); v != nil {
					if out == nil {
						out = map[*types.Var]*lockRead{}
					}
					out[v] = lr
				}
			}
		}
		return true
	})
	return out
}

// lockingQuery returns the locking read on a transaction that row is (or was assigned
// from), or nil.
func (j *Judge) lockingQuery(row ast.Expr) *lockRead {
	if v := j.local(row); v != nil {
		row = j.Defs.Def(v)
	}
	call, ok := ast.Unparen(row).(*ast.CallExpr)
	if !ok {
		return nil
	}
	arg, ok := j.statementCall(call)
	if !ok || arg == nil {
		return nil
	}
	table, ok := lockingRead(j.Defs.Text(arg))
	if !ok {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	tx := j.Defs.RootVar(sel.X)
	if tx == nil || !j.isTx(tx.Type()) {
		return nil
	}
	return &lockRead{at: call.Pos(), tx: tx, table: table}
}

// lockGate returns the gate of an if statement (whose body ends in a return) that tests a
// row a locking read filled, when the statements after it write that row's table on the
// same transaction; nil otherwise.
func (j *Judge) lockGate(ifs *ast.IfStmt, end token.Pos, en env, locks map[*types.Var]*lockRead) *Gate {
	if len(locks) == 0 {
		return nil
	}
	var lr *lockRead
	ast.Inspect(ifs.Cond, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && lr == nil {
			if v, ok := j.info().Uses[id].(*types.Var); ok {
				lr = locks[v]
			}
		}
		return lr == nil
	})
	if lr == nil {
		return nil
	}
	calls := j.callsOnTx(lr.tx, en)
	writes := false
	for _, c := range calls {
		if arg, ok := j.statementCall(c); ok && arg != nil && writesTable(j.Defs.Text(arg), lr.table) {
			writes = true
		}
	}
	if !writes {
		return nil // the state the check reads is not written with the transaction
	}
	return &Gate{Start: ifs.End(), End: end, What: "SELECT ... FOR UPDATE gate at " + j.shortPos(lr.at), OnTx: positions(calls)}
}

// callsOnTx returns the calls after the condition's statement, in its block, made on the
// transaction tx: on tx itself, with tx as an argument, or on a value made from it
// (q.WithTx(tx), db.New(tx)).
func (j *Judge) callsOnTx(tx *types.Var, en env) []*ast.CallExpr {
	if len(en.blocks) == 0 {
		return nil
	}
	blk := en.blocks[len(en.blocks)-1]
	var out []*ast.CallExpr
	for _, st := range blk.list[blk.idx+1:] {
		ast.Inspect(st, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if j.onTx(x, tx, 0) {
					out = append(out, x)
				}
			}
			return true
		})
	}
	return out
}

// onTx reports whether a call is made on tx: its receiver or an argument is tx, or a local
// variable assigned once from a call made on it.
func (j *Judge) onTx(call *ast.CallExpr, tx *types.Var, depth int) bool {
	exprs := append([]ast.Expr(nil), call.Args...)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		exprs = append(exprs, sel.X)
	}
	for _, e := range exprs {
		if c, ok := ast.Unparen(e).(*ast.CallExpr); ok && depth < 2 && j.onTx(c, tx, depth+1) {
			return true
		}
		v := j.Defs.RootVar(e)
		if v == nil {
			continue
		}
		if v == tx {
			return true
		}
		if d, ok := ast.Unparen(j.Defs.Def(v)).(*ast.CallExpr); ok && depth < 2 && j.onTx(d, tx, depth+1) {
			return true
		}
	}
	return false
}

func positions(calls []*ast.CallExpr) map[token.Pos]bool {
	m := make(map[token.Pos]bool, len(calls))
	for _, c := range calls {
		m[c.Pos()] = true
	}
	return m
}

// committed applies a transaction gate to an effect made on its transaction: what commits
// with it (a write on it, a job inserted through it, a database write whose connection is
// a helper's) is safe; an external effect, which the transaction cannot undo, keeps its
// state.
func (g *Gate) committed(e effect.Effect) effect.Effect {
	if e.State >= effect.Protected {
		return e
	}
	if g.Why != "" {
		e.Detail += "; the " + g.What + " guards nothing: " + g.Why
		return e
	}
	if e.Tx == effect.TxIn || (e.Kind == effect.SQLWrite && e.Tx == effect.TxUnknown) {
		e.State = effect.Protected
		e.Detail += "; it commits in the transaction of the " + g.What + ": a redelivery after the commit finds the job done, a crash before it leaves nothing"
	}
	return e
}

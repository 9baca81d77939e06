// Rows claimed by a sweep: a statement that moves the rows it selects out of its own
// selection and returns them (UPDATE ... SET sent = true WHERE sent = false RETURNING id,
// or the same through a CTE) returns each row once. The work done for the rows it returned
// (in a loop over them, in an if that tests there are some, after a return when there are
// none) is done once per row: a repeat selects none of them.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/statements"
)

// rowsGate returns the gate a statement checks over the rows a claiming statement returned:
// a range over them, an if (with no else) that tests there are some, or a loop over
// rows.Next() of the query itself. nil otherwise.
func (rd Reader) rowsGate(st ast.Stmt, en env, of ClaimOf) *Gate {
	var rows ast.Expr
	var body *ast.BlockStmt
	switch s := st.(type) {
	case *ast.RangeStmt:
		rows, body = s.X, s.Body
	case *ast.IfStmt:
		if s.Else != nil || s.Init != nil {
			return nil
		}
		rows, body = rd.someRows(s.Cond), s.Body
	case *ast.ForStmt:
		if s.Init != nil || s.Post != nil {
			return nil
		}
		if call, ok := ast.Unparen(s.Cond).(*ast.CallExpr); ok && len(call.Args) == 0 {
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Next" {
				rows, body = sel.X, s.Body
			}
		}
	}
	if rows == nil || body == nil {
		return nil
	}
	cl := rd.rowsClaim(rows, en, of)
	if cl == nil {
		return nil
	}
	g := &Gate{Start: body.Lbrace, End: body.Rbrace, What: cl.what + " gate at " + rd.shortPos(cl.at)}
	if cl.tx != nil {
		g.OnTx = positions(rd.callsOnTxIn(cl.tx, body.List))
	}
	return g
}

// someRows returns the slice that cond tests to hold some rows (len(v) > 0, len(v) != 0,
// 0 < len(v)), or nil.
func (rd Reader) someRows(cond ast.Expr) ast.Expr {
	c, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	x, op, n, ok := rd.countTest(c)
	if !ok || !countClaims(op, n) {
		return nil
	}
	return rd.lenOf(x)
}

// rowsClaim returns the claim whose rows e holds: a slice a Select-style call filled
// (Select(&v, ...)) or the rows a Query-style call returned, when its statement is one that
// a repeat finds nothing for and that returns what it changed (RETURNING), or the rows a
// function returned that says it returns such rows (effect.ReadRows: a sqlc :many query).
// nil otherwise.
func (rd Reader) rowsClaim(e ast.Expr, en env, of ClaimOf) *claim {
	v := rd.local(e)
	if v == nil {
		return nil
	}
	call := rd.filledBy(v, en)
	if call == nil {
		q, idx := rd.resolve(e, en)
		call, _ = q.(*ast.CallExpr)
		if call != nil {
			if cl := rd.helperClaim(call, idx, effect.ReadRows, of); cl != nil {
				return cl // due, err := q.ClaimDueReminders(ctx, n)
			}
		}
		if idx != 0 {
			call = nil
		}
	}
	if call == nil {
		return nil
	}
	text, ok := rd.queryText(call)
	if !ok {
		return nil
	}
	what := gateStatement(text)
	if what == "" || !containsWord(text, "RETURNING") {
		return nil
	}
	// The claim is of each row, not of the job: a statement that names the same rows for
	// every job (a scheduled sweep) claims what is left to do, which is what it means to.
	return &claim{at: call.Pos(), what: what + " ... RETURNING (each row it returns, once)", tx: rd.stmtTx(call)}
}

// returnedRows returns the claim of the rows a function returns in r: a slice it appends
// to in a loop over rows.Next() of a query whose statement claims them (rowsClaim), the
// loop being in body (a sqlc :many query's `for rows.Next() { ...; items = append(items,
// i) }`). nil otherwise.
func (rd Reader) returnedRows(body *ast.BlockStmt, r ast.Expr, en env, of ClaimOf) *claim {
	items := rd.local(r)
	if items == nil {
		return nil
	}
	var out *claim
	ast.Inspect(body, func(x ast.Node) bool {
		if _, lit := x.(*ast.FuncLit); lit || out != nil {
			return false
		}
		loop, ok := x.(*ast.ForStmt)
		if !ok || loop.Init != nil || loop.Post != nil {
			return true
		}
		call, ok := ast.Unparen(loop.Cond).(*ast.CallExpr)
		if !ok || len(call.Args) != 0 {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Next" || !rd.appendsTo(loop.Body, items) {
			return true
		}
		out = rd.rowsClaim(sel.X, en, of)
		return false
	})
	return out
}

// appendsTo reports whether body assigns append(v, ...) to v.
func (rd Reader) appendsTo(body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(x ast.Node) bool {
		as, ok := x.(*ast.AssignStmt)
		if !ok || found || len(as.Lhs) != 1 || len(as.Rhs) != 1 || rd.local(as.Lhs[0]) != v {
			return !found
		}
		if call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && rd.isBuiltin(call, "append") && len(call.Args) > 0 && rd.local(call.Args[0]) == v {
			found = true
		}
		return !found
	})
	return found
}

// filledBy returns the call before the condition's statement, in the blocks around it, that
// is given &v (tx.Select(&v, query), stmt.SelectContext(ctx, &v, arg)), or nil.
func (rd Reader) filledBy(v *types.Var, en env) *ast.CallExpr {
	for b := len(en.blocks) - 1; b >= 0; b-- {
		blk := en.blocks[b]
		for k := blk.idx - 1; k >= 0; k-- {
			var found *ast.CallExpr
			ast.Inspect(blk.list[k], func(x ast.Node) bool {
				if _, lit := x.(*ast.FuncLit); lit || found != nil {
					return false
				}
				call, ok := x.(*ast.CallExpr)
				if !ok {
					return true
				}
				for _, a := range call.Args {
					if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND && rd.local(u.X) == v {
						found = call
						return false
					}
				}
				return true
			})
			if found != nil {
				return found
			}
		}
	}
	return nil
}

// queryText returns the statement text a query call runs: its statement argument, or for a
// prepared statement's method, the text it was prepared from.
func (rd Reader) queryText(call *ast.CallExpr) (string, bool) {
	if arg, ok := rd.statementCall(call); ok && arg != nil {
		return rd.Defs.Text(arg), true
	}
	fn := callee(rd.info(), call)
	if fn == nil {
		return "", false
	}
	if s := rd.Models.Of(fn.Origin()).Sink; s != nil && s.Shape == model.SQLPrepared {
		return statements.Reader{Defs: rd.Defs, Models: rd.Models, Schema: rd.Schema}.PreparedText(call), true
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) && (fn.Name() == "Query" || fn.Name() == "QueryContext") {
		// An application's interface over the driver (sqlc's DBTX): the rows of its text.
		// Not a statement call for the other gates: Query's error says nothing of the rows.
		for i, a := range call.Args {
			if i < fn.Signature().Params().Len() && defuse.IsString(fn.Signature().Params().At(i).Type()) {
				return rd.Defs.Text(a), true
			}
		}
	}
	return "", false
}

// stmtTx returns the transaction a query call runs on: its receiver or an argument, or,
// for a prepared statement, the receiver of the Prepare call that made it. nil for none.
func (rd Reader) stmtTx(call *ast.CallExpr) *types.Var {
	if tx := rd.txArg(call); tx != nil {
		return tx
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v := rd.local(sel.X)
	if v == nil {
		return nil
	}
	if prep, ok := ast.Unparen(rd.Defs.Def(v)).(*ast.CallExpr); ok {
		return rd.txArg(prep)
	}
	return nil
}

// callsOnTxIn returns the calls in list made on the transaction tx (see onTx).
func (rd Reader) callsOnTxIn(tx *types.Var, list []ast.Stmt) []*ast.CallExpr {
	var out []*ast.CallExpr
	for _, st := range list {
		ast.Inspect(st, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if rd.onTx(x, tx) {
					out = append(out, x)
				}
			}
			return true
		})
	}
	return out
}

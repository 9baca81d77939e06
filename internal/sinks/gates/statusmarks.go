// Status checks in the style of a domain model: the status read through a getter of the
// record a lookup by the job's key returned (order.Status() == OrderStatusCompensated), and
// written by a method named for it (MarkCompensated(ctx, id), MarkAsPaid, SetProcessed).
// When the check and the mark are made on one transaction (a function literal a unit of
// work runs, given its transaction or the repositories made on it), what the literal
// writes on that transaction between the check and the mark commits with the mark: a
// redelivery after the commit finds the status and leaves, a crash before it leaves
// nothing.

package gates

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// recordOf returns the record whose status read is: rec of rec.Status, or of a getter
// call rec.Status() (a method given no arguments); read itself otherwise.
func recordOf(read ast.Expr) ast.Expr {
	read = ast.Unparen(read)
	if call, ok := read.(*ast.CallExpr); ok && len(call.Args) == 0 {
		read = ast.Unparen(call.Fun)
	}
	if sel, ok := read.(*ast.SelectorExpr); ok {
		return sel.X
	}
	return read
}

// callMarking returns the first call in body between start and end (not in literals) that
// writes the status v by its name: a markVerbs call given the job's key whose name names
// the status (namesStatus: MarkCompensated for "compensated", MarkAsCancelled for
// "CANCELLED"); nil otherwise.
func (rd Reader) callMarking(body *ast.BlockStmt, start, end token.Pos, v constant.Value, sc keys.Scope) *ast.CallExpr {
	return rd.firstCallOf(body, start, end, func(call *ast.CallExpr) bool {
		return rd.marks(call, sc) && namesStatus(callee(rd.info(), call).Name(), constant.StringVal(v))
	})
}

// statusTxGate returns the gate of a status check (statusGate) whose status is written on
// the transaction of a function literal (its parameter: a modelled transaction, or the
// repositories a unit of work made on one, uow.Do(ctx, func(r *Repositories) error)): the
// calls made on that parameter between the check and the write commit with the write. nil
// otherwise; the writes after the status's write are statusGate's.
func (rd Reader) statusTxGate(body *ast.BlockStmt, ifs *ast.IfStmt, en env, sc keys.Scope) *Gate {
	if sc.Func != nil || len(ifs.Body.List) == 0 || !defuse.EndsBlock(ifs.Body.List[len(ifs.Body.List)-1]) {
		return nil
	}
	end := rd.guardedEnd(en)
	written := rd.statusWritten(body, ifs, end, sc)
	if written == nil {
		return nil
	}
	sel, ok := ast.Unparen(written.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	tx := rd.Defs.RootVar(sel.X)
	if tx == nil || !literalParam(tx, body, sc) || !rd.isTx(tx.Type()) && !unitOfWork(tx.Type()) {
		return nil
	}
	var calls []*ast.CallExpr
	for _, c := range rd.callsOnTxIn(tx, body.List) {
		if c.Pos() >= ifs.End() && c.Pos() < written.Pos() {
			calls = append(calls, c)
		}
	}
	if len(calls) == 0 {
		return nil
	}
	return &Gate{Start: ifs.End(), End: written.Pos(), What: "status check at " + rd.shortPos(ifs.Pos()) + ", written at " + rd.shortPos(written.Pos()) + ",", OnTx: positions(calls)}
}

// literalParam reports whether v is a parameter of the function literal whose body is
// body (scope sc).
func literalParam(v *types.Var, body *ast.BlockStmt, sc keys.Scope) bool {
	s := v.Parent()
	return sc.Params[v] && s != nil && v.Pos() < body.Lbrace && s.Pos() < body.Lbrace && s.End() >= body.Rbrace
}

// unitOfWorkNames are the names (or last words) of the type a unit of work hands its
// function: the repositories it made on its transaction.
var unitOfWorkNames = []string{"Repositories", "Repos", "UnitOfWork", "Uow", "UoW", "Tx", "Transaction"}

// unitOfWork reports whether t, or what it points to, is a named type whose name is, or
// ends in, one of unitOfWorkNames (TxRepositories, OrderTx).
func unitOfWork(t types.Type) bool {
	named, ok := types.Unalias(defuse.Deref(t)).(*types.Named)
	if !ok {
		return false
	}
	name := named.Obj().Name()
	return slices.ContainsFunc(unitOfWorkNames, func(s string) bool { return strings.HasSuffix(name, s) })
}

// Transaction gates: a row locked by SELECT ... FOR UPDATE on a transaction, checked with an
// early return, and written in the same transaction. A redelivery after the commit reads the
// new state and returns; a crash before the commit leaves nothing. What commits with the
// transaction is safe; an effect the transaction cannot undo (an HTTP call before the
// commit), or a write on another connection, is not.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/sinks/keys"
	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// lockRead is a locking read on a transaction whose row was scanned into variables.
type lockRead struct {
	at    token.Pos
	tx    *types.Var
	table string // upper case, "" when not read
	// gorm: a gorm read with a FOR UPDATE locking clause into a record (the table is the
	// record's, which the writes after it name by the record or the transaction alone).
	gorm bool
	// stateCols are the columns a gorm locking read's Where tests against constants, when
	// its error is the check (filteredLock): a write on the transaction must set one.
	stateCols []string
	// via names the helper that made the read and returned the row (lockhelpers.go), "" for
	// a read in the body.
	via string
}

// lockScans finds the rows a body scans from a locking read on a transaction
// (tx.QueryRow(ctx, "SELECT ... FOR UPDATE", id).Scan(&status)), or is handed by a helper
// that made one on the transaction passed to it (of says which functions do), by the
// variables filled.
func (rd Reader) lockScans(body *ast.BlockStmt, sc keys.Scope, of ClaimOf) map[*types.Var]*lockRead {
	var out map[*types.Var]*lockRead
	ast.Inspect(body, func(x ast.Node) bool {
		if as, ok := x.(*ast.AssignStmt); ok {
			if v, lr := rd.helperLockScan(as, sc, of); lr != nil {
				if out == nil {
					out = map[*types.Var]*lockRead{}
				}
				out[v] = lr
			}
			return true
		}
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if v, lr := rd.gormLockRead(call, sel); lr != nil {
			if out == nil {
				out = map[*types.Var]*lockRead{}
			}
			out[v] = lr
			return true
		}
		if sel.Sel.Name != "Scan" {
			return true
		}
		lr := rd.lockingQuery(sel.X)
		if lr == nil {
			return true
		}
		for _, a := range call.Args {
			if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND {
				if v := rd.Defs.RootVar(u.X); v != nil {
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

// gormFinishers are the gorm methods that read one record into their first argument.
var gormFinishers = map[string]bool{"First": true, "Take": true, "Last": true, "Find": true}

// gormLockRead returns the record a gorm read with a FOR UPDATE locking clause fills, on a
// *gorm.DB variable (tx.Clauses(clause.Locking{Strength: "UPDATE"}).First(&locked, "id =
// ?", id)), and the read; nil when call is none. gorm's transaction handle is a *gorm.DB
// like its pool: a locking read is taken to be in a transaction (Transaction(func(tx
// *gorm.DB) error {...})), as it must be to lock anything past its own statement.
func (rd Reader) gormLockRead(call *ast.CallExpr, sel *ast.SelectorExpr) (*types.Var, *lockRead) {
	if !gormFinishers[sel.Sel.Name] || len(call.Args) == 0 {
		return nil, nil
	}
	fn, ok := rd.info().Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != gormPath {
		return nil, nil
	}
	u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil, nil
	}
	rec := rd.Defs.RootVar(u.X)
	if rec == nil {
		return nil, nil
	}
	locking := false
	x := ast.Expr(sel.X)
	for {
		c, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			break
		}
		cs, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			break
		}
		if cs.Sel.Name == "Clauses" {
			for _, a := range c.Args {
				locking = locking || rd.forUpdate(a)
			}
		}
		x = cs.X
	}
	tx := rd.Defs.RootVar(x) // the chain's root: tx of tx.Clauses(...).First(...)
	if !locking || tx == nil {
		return nil, nil
	}
	return rec, &lockRead{at: call.Pos(), tx: tx, gorm: true}
}

// gormPath is gorm's package path.
const gormPath = "gorm.io/gorm"

// forUpdate reports whether e is a gorm clause.Locking literal of strength UPDATE (or NO
// KEY UPDATE): FOR UPDATE.
func (rd Reader) forUpdate(e ast.Expr) bool {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok {
		return false
	}
	named, ok := types.Unalias(rd.info().TypeOf(lit)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != gormPath+"/clause" || named.Obj().Name() != "Locking" {
		return false
	}
	strength, ok := defuse.FieldValue(lit, "Strength")
	if !ok {
		return false
	}
	switch rd.Defs.ConstString(strength) {
	case "UPDATE", "NO KEY UPDATE":
		return true
	}
	return false
}

// lockingCall returns the locking read (SELECT ... FOR UPDATE) that row is (or was
// assigned from), and the table it locks; nil for none.
func (rd Reader) lockingCall(row ast.Expr) (*ast.CallExpr, string) {
	var call *ast.CallExpr
	rd.Defs.Find(row, defuse.Value, func(x ast.Node) bool {
		call, _ = x.(*ast.CallExpr)
		return call != nil
	})
	if call == nil {
		return nil, ""
	}
	arg, ok := rd.statementCall(call)
	if !ok || arg == nil {
		return nil, ""
	}
	table, ok := lockingRead(rd.Defs.Text(arg))
	if !ok {
		return nil, ""
	}
	return call, table
}

// lockingQuery returns the locking read on a transaction that row is (or was assigned
// from), or nil.
func (rd Reader) lockingQuery(row ast.Expr) *lockRead {
	call, table := rd.lockingCall(row)
	if call == nil {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	tx := rd.Defs.RootVar(sel.X)
	if tx == nil || !rd.isTx(tx.Type()) {
		return nil
	}
	return &lockRead{at: call.Pos(), tx: tx, table: table}
}

// lockGate returns the gate of an if statement (whose body ends in a return) that tests a
// row a locking read filled, or the error of a gorm locking read filtered by a state
// (filteredLock), when the statements after it write that row's state on the
// same transaction: a statement that writes its table, or a call that writes the job's
// state, whose text is a helper's (marksState). nil otherwise.
func (rd Reader) lockGate(ifs *ast.IfStmt, end token.Pos, en env, sc keys.Scope, locks map[*types.Var]*lockRead) *Gate {
	if len(locks) == 0 {
		return nil
	}
	var lr *lockRead
	ast.Inspect(ifs.Cond, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && lr == nil {
			if v, ok := rd.info().Uses[id].(*types.Var); ok {
				lr = locks[v]
			}
		}
		return lr == nil
	})
	if lr == nil {
		lr = rd.filteredLock(ifs.Cond, en)
	}
	if lr == nil || budgetTest(ifs.Cond) {
		return nil
	}
	calls := rd.callsOnTx(lr.tx, en)
	writes := lr.gorm && len(calls) > 0 && lr.stateCols == nil // gorm writes name no table in text
	for _, c := range calls {
		writes = writes || lr.stateCols != nil && rd.gormSets(c, lr.stateCols)
	}
	leaves := rd.stateTest(ifs.Cond)
	for _, c := range calls {
		if arg, ok := rd.statementCall(c); ok && arg != nil && writesTable(rd.Defs.Text(arg), lr.table) ||
			rd.marksState(c, sc) && rd.writesLeavingState(c, leaves) {
			writes = true
		}
	}
	if !writes {
		return nil // the state the check reads is not written with the transaction
	}
	what := "SELECT ... FOR UPDATE gate at " + rd.shortPos(lr.at)
	if lr.via != "" {
		what = lr.via + "'s " + what
	}
	return &Gate{Start: ifs.End(), End: end, What: what, OnTx: positions(calls)}
}

// budgetTest reports whether a check compares a value with a limit (<, <=, >, >=:
// int(d.AttemptCount) >= MaxAttempts): a budget, not a state. The write that takes an
// attempt moves the count toward the limit, and the next delivery passes the check again.
func budgetTest(cond ast.Expr) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	return ok && (be.Op == token.LSS || be.Op == token.LEQ || be.Op == token.GTR || be.Op == token.GEQ)
}

// stateTest returns, for a check of a field against a string constant (delivery.Status ==
// "delivered", a switch's case read as one; r.Status != "pending"), whether a value
// written to the field would make the check true, so that a redelivery leaves there; nil
// for any other check, whose values are not read.
func (rd Reader) stateTest(cond ast.Expr) func(string) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL && be.Op != token.NEQ {
		return nil
	}
	field, k := be.X, rd.Defs.ConstString(be.Y)
	if k == "" {
		field, k = be.Y, rd.Defs.ConstString(be.X)
	}
	if _, ok := ast.Unparen(field).(*ast.SelectorExpr); !ok || k == "" {
		return nil
	}
	if be.Op == token.EQL {
		return func(v string) bool { return v == k }
	}
	return func(v string) bool { return v != k }
}

// writesLeavingState reports whether a call that marks the job's state (marksState) may
// write one the check leaves on (leaves; nil: any): a string constant it is given, or one
// of its params literal, that makes the check true, or no string constant at all (MarkDone:
// its name says the state, which is not read). A call that writes only other states
// (SetOrderStatus(ctx, {Status: "delivering"}) under a check for "delivered") leaves the
// check passing on a redelivery.
func (rd Reader) writesLeavingState(call *ast.CallExpr, leaves func(string) bool) bool {
	if leaves == nil {
		return true
	}
	var given []string
	var collect func(e ast.Expr)
	collect = func(e ast.Expr) {
		e = ast.Unparen(e)
		if s := rd.Defs.ConstString(e); s != "" {
			given = append(given, s)
			return
		}
		if lit, ok := e.(*ast.CompositeLit); ok {
			for _, el := range lit.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					collect(kv.Value)
				}
			}
		}
	}
	for _, a := range call.Args {
		collect(a)
	}
	if len(given) == 0 {
		return true
	}
	return slices.ContainsFunc(given, leaves)
}

// filteredLock returns the gorm locking read whose error cond tests (err != nil, err the
// read's Error: tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ? AND status
// = ?", id, StatusPending).First(&row).Error) when its Where is given a constant beside its
// text, a state: a row that has left that state is not found, and the check leaves as a
// test of the row's state would. nil otherwise.
func (rd Reader) filteredLock(cond ast.Expr, en env) *lockRead {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ || !rd.isNil(be.Y) {
		return nil
	}
	x := ast.Unparen(be.X)
	if v := rd.local(x); v != nil {
		d, _ := rd.valueOf(v, en)
		x = ast.Unparen(d)
	}
	sel, ok := x.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Error" {
		return nil
	}
	call, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fsel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if _, lr := rd.gormLockRead(call, fsel); lr != nil {
		if lr.stateCols = rd.constantColumns(fsel.X); lr.stateCols != nil {
			return lr
		}
	}
	return nil
}

// constantColumns returns the columns a gorm chain's Where calls with constant text test
// against constants (Where("id = ? AND status = ?", id, StatusPending): status), or nil.
func (rd Reader) constantColumns(chain ast.Expr) []string {
	var cols []string
	rd.Defs.ChainCalls(chain, func(c *ast.CallExpr, name string) {
		if name != "Where" || len(c.Args) == 0 {
			return
		}
		text := rd.Defs.ConstString(c.Args[0])
		if text == "" {
			return
		}
		tested, _ := sqlstmt.ConstantTests(rd.bind(text, c.Args[1:], &ormChain{}))
		cols = append(cols, tested...)
	})
	return cols
}

// gormSets reports whether call is a gorm update that sets one of cols.
func (rd Reader) gormSets(call *ast.CallExpr, cols []string) bool {
	fn := callee(rd.info(), call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != gormPath || !gormUpdates[fn.Name()] {
		return false
	}
	ch := rd.gormChain(call)
	if ch == nil {
		return false
	}
	for _, s := range ch.set {
		col, _, _ := strings.Cut(s, " = ")
		if slices.Contains(cols, strings.ToLower(col)) {
			return true
		}
	}
	return false
}

// callsOnTx returns the calls after the condition's statement, in its block, made on the
// transaction tx: on tx itself, with tx as an argument, or on a value made from it
// (q.WithTx(tx), db.New(tx)).
func (rd Reader) callsOnTx(tx *types.Var, en env) []*ast.CallExpr {
	if len(en.blocks) == 0 {
		return nil
	}
	blk := en.blocks[len(en.blocks)-1]
	return rd.callsOnTxIn(tx, blk.list[blk.idx+1:])
}

// onTx reports whether a call is made on tx: its receiver or an argument is tx (or a field
// or element of it), a call made on it, or a local variable assigned once from such a call
// (q := db.New(tx)).
func (rd Reader) onTx(call *ast.CallExpr, tx *types.Var) bool {
	return rd.Defs.Find(call, defuse.Value, func(x ast.Node) bool {
		id, ok := x.(*ast.Ident)
		return ok && rd.info().Uses[id] == tx
	}, defuse.Through(func(x ast.Expr) []ast.Expr {
		switch x := x.(type) {
		case *ast.CallExpr:
			exprs := append([]ast.Expr(nil), x.Args...)
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				exprs = append(exprs, sel.X)
			}
			return exprs
		case *ast.SelectorExpr:
			return []ast.Expr{x.X}
		case *ast.IndexExpr:
			return []ast.Expr{x.X}
		case *ast.StarExpr:
			return []ast.Expr{x.X}
		case *ast.UnaryExpr:
			return []ast.Expr{x.X}
		}
		return nil
	}), defuse.At(func(v *types.Var) ast.Expr {
		if d, ok := ast.Unparen(rd.Defs.Def(v)).(*ast.CallExpr); ok {
			return d // a value made from a call, which may be made on tx
		}
		return nil
	}))
}

func positions(calls []*ast.CallExpr) map[token.Pos]bool {
	m := make(map[token.Pos]bool, len(calls))
	for _, c := range calls {
		m[c.Pos()] = true
	}
	return m
}

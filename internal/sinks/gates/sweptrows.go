// Rows a sweep lists by their state and moves out of it, one transaction each: a cron job
// lists the records in a state (db.Where("status = ? AND expires_at < ?", StatusActive,
// now).Find(&envelopes)) and, for each, runs a transaction literal that writes the record
// out of that state (tx.Model(&RedEnvelope{}).Where("id = ?", e.ID).Updates(map[string]any{
// "status": StatusExpired})) beside its other writes. A repeat's listing no longer finds a
// record whose transaction committed, and a crash before the commit leaves nothing: what
// the literal writes on its transaction is checked first, as a lookup's write is. Two
// sweeps at once both list the record.

package gates

import (
	"go/ast"
	"go/types"
	"slices"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// sweptRowGate returns the gate of a transaction literal's body (scope sc) that writes, on
// its transaction parameter, the record a range variable of the enclosing function holds
// out of the state its listing selected: a gorm update whose Where is given the record or a
// field of it (e.ID) and that sets a column the listing's Where tests against a constant. It
// covers the calls made on the transaction in body. nil otherwise.
func (rd Reader) sweptRowGate(body *ast.BlockStmt, sc keys.Scope) *Gate {
	if sc.Func != nil {
		return nil
	}
	var g *Gate
	ast.Inspect(body, func(x ast.Node) bool {
		if _, lit := x.(*ast.FuncLit); lit || g != nil {
			return false
		}
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		tx := rd.chainRoot(sel.X)
		if tx == nil || !literalParam(tx, body, sc) || !rd.isTx(tx.Type()) && !isGormDB(tx.Type()) {
			return true
		}
		if listing := rd.sweptRow(call); listing != nil {
			g = &Gate{
				Start:  body.Lbrace,
				End:    body.Rbrace,
				What:   "sweep listing at " + rd.shortPos(listing.Pos()) + ", whose record this transaction moves out of its state at " + rd.shortPos(call.Pos()) + ",",
				OnTx:   positions(rd.callsOnTxIn(tx, body.List)),
				Lookup: true,
			}
		}
		return true
	})
	return g
}

// sweptRow returns the listing that filled the slice a range variable ranges over, when
// call is a gorm update given that variable (or a field of it) in a Where of its chain and setting
// a column the listing's Where tests against a constant; nil otherwise.
func (rd Reader) sweptRow(call *ast.CallExpr) *ast.CallExpr {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	var listing *ast.CallExpr
	rd.Defs.ChainCalls(sel.X, func(c *ast.CallExpr, name string) {
		if name != "Where" || listing != nil {
			return
		}
		for _, a := range c.Args[min(1, len(c.Args)):] {
			if l := rd.stateListing(rd.Defs.RootVar(a)); l != nil {
				if cols := rd.constantColumns(ast.Unparen(l.Fun).(*ast.SelectorExpr).X); rd.gormSets(call, cols) {
					listing = l
					return
				}
			}
		}
	})
	return listing
}

// chainRoot returns the variable a builder chain starts from (tx of
// tx.Model(m).Where(...)), or nil.
func (rd Reader) chainRoot(e ast.Expr) *types.Var {
	for {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return rd.Defs.RootVar(e)
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil
		}
		e = sel.X
	}
}

// stateListing returns the gorm read (Find, Scan) that filled the slice v ranges over,
// or nil.
func (rd Reader) stateListing(v *types.Var) *ast.CallExpr {
	if v == nil {
		return nil
	}
	list := rd.Defs.RootVar(rd.Defs.RangedOver(v))
	if list == nil {
		return nil
	}
	for _, c := range rd.Defs.Fills(list) {
		fn := callee(rd.info(), c)
		if _, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == gormPath && slices.Contains(listReads, fn.Name()) {
			return c
		}
	}
	return nil
}

// listReads are gorm's finishers that read rows into a slice.
var listReads = []string{"Find", "Scan"}

// isGormDB reports whether t is *gorm.DB: a gorm Transaction literal's parameter.
func isGormDB(t types.Type) bool {
	named, ok := types.Unalias(defuse.Deref(t)).(*types.Named)
	return ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == gormPath && named.Obj().Name() == "DB"
}

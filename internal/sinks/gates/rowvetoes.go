// Row checks made by a helper: a function of the package returning a bool that is the
// answer of a gorm read by columns (canPlace(bot, price) returns false when a listing of the
// bot's fills holds a pending one; hasOpen(bot) returns true when a read of one row found
// it). A caller that leaves on that answer, then creates a record that the read, given the
// caller's arguments, would find, is checked first from the create on, as when it made the
// read itself (createdrow.go).

package gates

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// rowVeto is what a helper's bool result says of a read by columns in its body: the helper
// returns found when the read found a row (for a listing searched in a loop, a row whose
// field holds the constant the lookup's extra test fixes).
type rowVeto struct {
	lookup *rowLookup
	found  bool
}

// vetoGate returns the gate of `if !canPlace(bot, price) { return ... }` (or `if
// hasOpen(bot) { return }`): a helper of the package whose answer, on which the if leaves,
// says its read by columns found a row, from the create after the if of a record that read
// would find at this call, to the end of the if's block; nil otherwise.
func (rd Reader) vetoGate(body *ast.BlockStmt, ifs *ast.IfStmt, en env) *Gate {
	if len(ifs.Body.List) == 0 || !defuse.EndsBlock(ifs.Body.List[len(ifs.Body.List)-1]) || ifs.Else != nil {
		return nil
	}
	cond, leaveOn := ast.Unparen(ifs.Cond), true
	if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		cond, leaveOn = ast.Unparen(u.X), false
	}
	call, ok := cond.(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn := callee(rd.info(), call)
	if fn == nil || fn.Signature().Variadic() || fn.Signature().Results().Len() != 1 || !isBool(fn.Signature().Results().At(0).Type()) {
		return nil
	}
	veto := rd.rowVetoOf(fn)
	if veto == nil || veto.found != leaveOn {
		return nil
	}
	l := *veto.lookup
	l.subst = map[types.Object]ast.Expr{}
	sig := fn.Signature()
	for i := 0; i < sig.Params().Len() && i < len(call.Args); i++ {
		l.subst[sig.Params().At(i)] = call.Args[i]
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sig.Recv() != nil {
		l.subst[sig.Recv()] = sel.X
	}
	return rd.createdGate(body, &l, ifs.End(), en.end, "existence check "+fn.Name()+" at "+rd.shortPos(call.Pos()))
}

// rowVetoOf reads the body of fn, a function of the package returning a bool, for the first
// statement at its top level that returns a constant when a gorm read by columns before it
// found a row: a range over a listing with `if row.F == C { return false }`; `if len(rows) >
// 0 { return false }` after a listing; `if t.ID != "" { return true }` after a read of one
// row. Nothing before it may return the other answer, which a repeat could get without
// reading. nil when there is none.
func (rd Reader) rowVetoOf(fn *types.Func) *rowVeto {
	decl := rd.Defs.Decl(fn)
	if decl == nil {
		return nil
	}
	for i, st := range decl.Body.List {
		var veto *rowVeto
		switch st := st.(type) {
		case *ast.RangeStmt:
			veto = rd.searchedListing(decl.Body, st)
		case *ast.IfStmt:
			b, ok := rd.returnsBool(st.Body)
			if !ok || st.Else != nil {
				continue
			}
			if l := rd.nonEmptyListing(decl.Body, st); l != nil {
				veto = &rowVeto{lookup: l, found: b}
				break
			}
			en := env{blocks: []envBlock{{list: decl.Body.List, idx: i, end: decl.Body.Rbrace}}, init: st.Init, end: decl.Body.Rbrace}
			if l, found := rd.rowTested(decl.Body, st, en); l != nil && found {
				veto = &rowVeto{lookup: l, found: b}
			}
		}
		if veto != nil {
			if rd.returnsOther(decl.Body.List[:i], veto.found) {
				return nil
			}
			return veto
		}
	}
	return nil
}

// returnsOther reports whether a statement of list (at any depth, not in literals) returns
// something other than the constant answer.
func (rd Reader) returnsOther(list []ast.Stmt, answer bool) bool {
	other := false
	for _, st := range list {
		ast.Inspect(st, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.ReturnStmt:
				if len(x.Results) != 1 || !(answer && rd.Defs.IsTrue(x.Results[0]) || !answer && rd.Defs.IsFalse(x.Results[0])) {
					other = true
				}
			}
			return !other
		})
	}
	return other
}

// searchedListing reads a range over a gorm listing by columns whose body returns a constant
// bool when a row's field holds a constant (if row.Status == 0 { return false }): the
// listing, with the field's test added.
func (rd Reader) searchedListing(body *ast.BlockStmt, rs *ast.RangeStmt) *rowVeto {
	elem, list := rd.rangeVar(rs.Value), rd.local(rs.X)
	if elem == nil || list == nil {
		return nil
	}
	read := rd.readFilling(body, list, func(call *ast.CallExpr) bool { return call.Pos() < rs.Pos() && rd.listingOf(call) != nil })
	if read == nil {
		return nil
	}
	for i, st := range rs.Body.List {
		ifs, ok := st.(*ast.IfStmt)
		if !ok || ifs.Init != nil || ifs.Else != nil {
			continue
		}
		if skipsRows(rs.Body.List[:i]) {
			return nil // a row skipped before the test is not tested
		}
		b, ok := rd.returnsBool(ifs.Body)
		if !ok {
			continue
		}
		be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || be.Op != token.EQL {
			continue
		}
		x, c := be.X, be.Y
		if rd.info().Types[x].Value != nil {
			x, c = c, x
		}
		sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
		lit := sqlConstant(rd.info().Types[c].Value)
		if !ok || rd.local(sel.X) != elem || lit == "" {
			continue
		}
		l := rd.listingOf(read)
		st, _ := l.row.Underlying().(*types.Struct)
		col := rd.gormColumn(st, sel.Sel)
		if col == "" {
			continue
		}
		l.tests = append(l.tests, sqlstmt.ColumnTest{Column: col, Values: []string{lit}})
		l.args = append(l.args, nil)
		return &rowVeto{lookup: l, found: b}
	}
	return nil
}

// nonEmptyListing returns the gorm listing by columns an if's condition finds rows in
// (len(rows) > 0, len(rows) != 0), or nil.
func (rd Reader) nonEmptyListing(body *ast.BlockStmt, ifs *ast.IfStmt) *rowLookup {
	be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.GTR && be.Op != token.NEQ || !rd.isZero(be.Y) {
		return nil
	}
	x := rd.lenOf(be.X)
	v := rd.local(x)
	if v == nil {
		return nil
	}
	read := rd.readFilling(body, v, func(call *ast.CallExpr) bool { return call.Pos() < ifs.Pos() && rd.listingOf(call) != nil })
	if read == nil {
		return nil
	}
	return rd.listingOf(read)
}

// skipsRows reports whether a statement of a loop body's list (at any depth, not in literals)
// goes to the next row or leaves the loop: continue, break, goto, return.
func skipsRows(list []ast.Stmt) bool {
	skips := false
	for _, st := range list {
		ast.Inspect(st, func(x ast.Node) bool {
			switch x.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt, *ast.ReturnStmt:
				skips = true
			}
			return !skips
		})
	}
	return skips
}

// returnsBool reports the constant bool a block returns as its last statement (return
// false), and whether it does.
func (rd Reader) returnsBool(b *ast.BlockStmt) (bool, bool) {
	if len(b.List) == 0 {
		return false, false
	}
	ret, ok := b.List[len(b.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false, false
	}
	switch {
	case rd.Defs.IsTrue(ret.Results[0]):
		return true, true
	case rd.Defs.IsFalse(ret.Results[0]):
		return false, true
	}
	return false, false
}

// Lookups of the row the code then creates: a gorm read of one row by columns
// (db.Where("ant_id = ? AND mode = 2 AND status = ?", a.ID, 0).Take(&t)) that leaves when it
// found one (if t.ID != "" { return ... }), or whose not-found branch creates it (if
// errors.Is(res.Error, gorm.ErrRecordNotFound) { db.Create(&T{...}) }), with a Create of a
// record of the row's type whose fields hold the values the read selects by. Whatever those
// values came from (the job, a listing the job read, a constant), a redelivery's read finds
// the row the first run created and creates nothing, unless a value is random or from the
// clock. The gate covers the create and what follows it: an effect between the check and
// the create runs again after a crash, as it does before any check made first.

package gates

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// rowLookup is a gorm read of rows by the columns its Where calls fix.
type rowLookup struct {
	call  *ast.CallExpr // First, Take or Last; Find for a listing
	row   *types.Named  // the record type it fills
	tests []sqlstmt.ColumnTest
	args  [][]ast.Expr // per test, the Where arguments its placeholder numbers count in
	// subst, for a read in a helper judged at a call, holds the caller's argument for each
	// of the helper's parameters (and its receiver): what the read's arguments made of them
	// are at the call.
	subst map[types.Object]ast.Expr
}

// createdRowGate returns the gate of an if statement that tests what a gorm read of one row
// found (leaving when it found one, or creating in its body when it found none), from the
// Create in the region after it of a record that the read would find, to the region's end;
// nil otherwise.
func (rd Reader) createdRowGate(body *ast.BlockStmt, ifs *ast.IfStmt, en env) *Gate {
	lookup, found := rd.rowTested(body, ifs, en)
	if lookup == nil {
		return nil
	}
	start, end := ifs.Body.Lbrace, ifs.Body.Rbrace
	if found {
		if len(ifs.Body.List) == 0 || !defuse.EndsBlock(ifs.Body.List[len(ifs.Body.List)-1]) || ifs.Else != nil {
			return nil
		}
		start, end = ifs.End(), en.end
	}
	return rd.createdGate(body, lookup, start, end, "existence check "+callee(rd.info(), lookup.call).Name()+" at "+rd.shortPos(lookup.call.Pos()))
}

// createdGate returns the gate of a check of lookup guarding body from start to end, named
// what: from the create in that region of a record the lookup would find to end, or, when
// the create is made in a gorm transaction's literal on its transaction, over what that
// literal does on the transaction (which commits with the create, or not at all); nil when
// there is no such create.
func (rd Reader) createdGate(body *ast.BlockStmt, lookup *rowLookup, start, end token.Pos, what string) *Gate {
	create, lit := rd.createOf(body, lookup, start, end)
	switch {
	case lit != nil:
		return &Gate{Start: lit.Pos(), End: lit.End(), What: what, Lookup: true, OnTx: map[token.Pos]bool{lit.Pos(): true}}
	case create != nil:
		return &Gate{Start: create.Pos(), End: end, What: what, Lookup: true}
	}
	return nil
}

// rowTested reads an if's condition as a test of what a gorm read of one row (before the if)
// found: found is true for a test that holds when it found the row (t.ID != "", t.ID > 0,
// res.RowsAffected > 0, err == nil, !errors.Is(err, gorm.ErrRecordNotFound)), false for one
// that holds when it did not (t.ID == "", res.RowsAffected == 0, errors.Is(res.Error,
// gorm.ErrRecordNotFound), err != nil). nil when the condition is none of these.
func (rd Reader) rowTested(body *ast.BlockStmt, ifs *ast.IfStmt, en env) (*rowLookup, bool) {
	switch c := ast.Unparen(ifs.Cond).(type) {
	case *ast.CallExpr: // errors.Is(res.Error, gorm.ErrRecordNotFound)
		return rd.notFoundTest(c, en), false
	case *ast.UnaryExpr:
		if call, ok := ast.Unparen(c.X).(*ast.CallExpr); ok && c.Op == token.NOT {
			return rd.notFoundTest(call, en), true
		}
	case *ast.BinaryExpr:
		x, y := c.X, c.Y
		if rd.isNil(x) || rd.isZero(x) || rd.Defs.IsEmptyString(x) || notFound(rd.info(), x) {
			x, y = y, x
		}
		var found bool
		switch c.Op {
		case token.NEQ, token.GTR:
			found = true
		case token.EQL:
		default:
			return nil, false
		}
		switch {
		case notFound(rd.info(), y): // err == gorm.ErrRecordNotFound: it did not
			return rd.errorOfRead(x, en), found
		case rd.isNil(y) && isError(rd.info().TypeOf(x)): // err == nil: it did
			return rd.errorOfRead(x, en), !found
		case rd.isZero(y) || rd.Defs.IsEmptyString(y):
			sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
			if !ok || c.Op == token.GTR && !rd.isZero(y) {
				return nil, false
			}
			if sel.Sel.Name == "RowsAffected" {
				if v := rd.local(sel.X); v != nil {
					d, _ := rd.valueOf(v, en)
					return rd.rowLookupOf(d), found
				}
				return nil, false
			}
			// t.ID != "": the primary key gorm fills when it reads a row, and a created row has.
			v := rd.local(sel.X)
			if v == nil || !primaryKey(v.Type(), sel.Sel.Name) {
				return nil, false
			}
			read := rd.readFilling(body, v, func(call *ast.CallExpr) bool { return call.Pos() < ifs.Pos() && rd.rowLookupOf(call) != nil })
			if read == nil {
				return nil, false
			}
			return rd.rowLookupOf(read), found
		}
	}
	return nil, false
}

// notFoundTest reads errors.Is(e, gorm.ErrRecordNotFound), e the error of a gorm read of
// one row; nil for anything else.
func (rd Reader) notFoundTest(call *ast.CallExpr, en env) *rowLookup {
	if fn := callee(rd.info(), call); fn == nil || fn.FullName() != "errors.Is" || len(call.Args) != 2 || !notFound(rd.info(), call.Args[1]) {
		return nil
	}
	return rd.errorOfRead(call.Args[0], en)
}

// errorOfRead returns the gorm read of one row whose error e is: res.Error, res := the read;
// the read's .Error; a local variable assigned one of these before the condition.
func (rd Reader) errorOfRead(e ast.Expr, en env) *rowLookup {
	if v := rd.local(e); v != nil {
		d, _ := rd.valueOf(v, en)
		e = d
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Error" {
		return nil
	}
	x := sel.X
	if v := rd.local(x); v != nil {
		x, _ = rd.valueOf(v, en)
	}
	return rd.rowLookupOf(x)
}

// lookupChainCalls are the calls a read's chain may hold besides its Where calls: they do not
// change which rows it selects, or only widen it (Unscoped).
var lookupChainCalls = map[string]bool{"Model": true, "Select": true, "Omit": true, "Order": true,
	"WithContext": true, "Debug": true, "Session": true, "Unscoped": true, "Limit": true, "Offset": true}

// rowLookupOf reads e as a gorm read of one row (First, Take or Last given only the address
// of the record it fills) whose chain selects by Where calls with constant text that fix
// columns only; nil otherwise.
func (rd Reader) rowLookupOf(e ast.Expr) *rowLookup { return rd.lookupOf(e, rowReads) }

// listingOf is rowLookupOf for a listing: a Find that fills a slice of records.
func (rd Reader) listingOf(e ast.Expr) *rowLookup { return rd.lookupOf(e, []string{"Find"}) }

// lookupOf reads e as a gorm read, one of the methods reads, given only the address of what
// it fills, whose chain selects by Where calls with constant text that fix columns only; nil
// otherwise.
func (rd Reader) lookupOf(e ast.Expr, reads []string) *rowLookup {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	fn := callee(rd.info(), call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != gormPath || !slices.Contains(reads, fn.Name()) {
		return nil
	}
	u, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	row := recordType(rd.info().TypeOf(u.X))
	if row == nil {
		return nil
	}
	l := &rowLookup{call: call, row: row}
	ok = true
	first := true
	rd.Defs.ChainCalls(call, func(c *ast.CallExpr, name string) {
		switch {
		case first:
			first = false
		case name == "Where" && len(c.Args) > 0:
			text := rd.Defs.ConstString(c.Args[0])
			if isColumnName(text) && len(c.Args) == 2 { // Where("version", v): version = v
				text += " = ?"
			}
			tests, read := sqlstmt.ColumnTests(text)
			if !read {
				ok = false
			}
			for _, t := range tests {
				l.tests = append(l.tests, t)
				l.args = append(l.args, c.Args[1:])
			}
		case !lookupChainCalls[name]:
			ok = false
		}
	})
	if !ok || len(l.tests) == 0 {
		return nil
	}
	return l
}

// isColumnName reports whether text is a bare column name (version, ant_id).
func isColumnName(text string) bool {
	return text != "" && strings.IndexFunc(text, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0
}

// recordType returns the named struct type t is, or points to, or holds a slice of (through
// pointers and slices: var t *T; Take(&t); var ts []*T; Find(&ts)); nil otherwise.
func recordType(t types.Type) *types.Named {
	for {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Slice:
			t = u.Elem()
			continue
		}
		break
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return nil
	}
	return n
}

// primaryKey reports whether field names the primary key of the record t is or points to:
// its column is id, or its gorm tag says primaryKey.
func primaryKey(t types.Type, field string) bool {
	n := recordType(t)
	if n == nil {
		return false
	}
	st := n.Underlying().(*types.Struct)
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i).Name() == field {
			return schema.FieldColumn(st, i) == "id" || strings.Contains(strings.ToLower(st.Tag(i)), "primarykey")
		}
	}
	return false
}

// createOf returns the first gorm Create in body between start and end (not in literals)
// of a record of the lookup's type, given as a composite literal or a variable assigned one
// in that region, whose fields pass every test of the lookup; or such a Create made on the
// transaction of a gorm Transaction's literal there (db.Transaction(func(tx *gorm.DB) error {
// ...; return tx.Create(&rec).Error })), with the literal. nil otherwise.
func (rd Reader) createOf(body *ast.BlockStmt, l *rowLookup, start, end token.Pos) (*ast.CallExpr, *ast.FuncLit) {
	var found *ast.CallExpr
	var inTx *ast.FuncLit
	ast.Inspect(body, func(x ast.Node) bool {
		if found != nil || x == nil || x.End() <= start || x.Pos() >= end {
			return false
		}
		if _, ok := x.(*ast.FuncLit); ok {
			return false
		}
		call, ok := x.(*ast.CallExpr)
		if !ok || call.Pos() < start {
			return true
		}
		fn := callee(rd.info(), call)
		if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != gormPath {
			return true
		}
		switch {
		case fn.Name() == "Create" && len(call.Args) == 1:
			if lit := rd.recordLiteral(body, call.Args[0], start); lit != nil && types.Identical(rd.info().TypeOf(lit), l.row) && rd.passes(lit, l) {
				found = call
			}
		case fn.Name() == "Transaction" && len(call.Args) > 0:
			if lit, tx := rd.txLiteral(call.Args[0]); lit != nil {
				if c, _ := rd.createOf(lit.Body, l, lit.Body.Lbrace, lit.Body.Rbrace); c != nil && rd.onVar(c, tx) {
					found, inTx = c, lit
				}
			}
		}
		return true
	})
	return found, inTx
}

// txLiteral returns the function literal e is, taking its transaction as its first
// parameter (func(tx *gorm.DB) error), and that parameter; nil otherwise.
func (rd Reader) txLiteral(e ast.Expr) (*ast.FuncLit, *types.Var) {
	lit, ok := ast.Unparen(e).(*ast.FuncLit)
	if !ok || len(lit.Type.Params.List) == 0 || len(lit.Type.Params.List[0].Names) == 0 {
		return nil, nil
	}
	tx, _ := rd.info().Defs[lit.Type.Params.List[0].Names[0]].(*types.Var)
	if tx == nil {
		return nil, nil
	}
	return lit, tx
}

// onVar reports whether a method call is made on the variable v (v.Create(...), also down a
// chain: v.Model(m).Create(...)).
func (rd Reader) onVar(call *ast.CallExpr, v *types.Var) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && rd.Defs.RootVar(sel.X) == v
}

// recordLiteral returns the composite literal e is (&T{...}, T{...}) or, for a local
// variable (&entity), the one last assigned to it in body between start and the call; nil
// otherwise.
func (rd Reader) recordLiteral(body *ast.BlockStmt, e ast.Expr, start token.Pos) *ast.CompositeLit {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	if lit, ok := e.(*ast.CompositeLit); ok {
		return lit
	}
	v := rd.local(e)
	if v == nil {
		return nil
	}
	var lit *ast.CompositeLit
	ast.Inspect(body, func(x ast.Node) bool {
		if x == nil || x.Pos() >= e.Pos() || x.End() <= start {
			return false
		}
		if as, ok := x.(*ast.AssignStmt); ok && as.Pos() >= start && len(as.Lhs) == len(as.Rhs) {
			for i, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok && rd.info().ObjectOf(id) == v { // := too
					r := ast.Unparen(as.Rhs[i])
					if u, ok := r.(*ast.UnaryExpr); ok && u.Op == token.AND {
						r = ast.Unparen(u.X)
					}
					lit, _ = r.(*ast.CompositeLit)
				}
			}
		}
		_, isLit := x.(*ast.FuncLit)
		return !isLit
	})
	return lit
}

// passes reports whether the record a literal makes passes every test of the lookup: each
// column is a field the literal sets to the value its test is given (the same constant, or
// the same variable or field, none of it random or from the clock), or leaves at a zero
// value the test is given.
func (rd Reader) passes(lit *ast.CompositeLit, l *rowLookup) bool {
	st := l.row.Underlying().(*types.Struct)
	set := map[string]ast.Expr{} // column: the value the literal gives it
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return false
		}
		if col := rd.gormColumn(st, kv.Key); col != "" {
			set[col] = kv.Value
		}
	}
	for i, t := range l.tests {
		if fieldOf(st, t.Column) == nil {
			return false
		}
		value := set[t.Column]
		switch {
		case t.Param > 0:
			if t.Param > len(l.args[i]) {
				return false
			}
			arg := rd.resolved(l.args[i][t.Param-1], l.subst)
			if rd.keys().UnstableSource(arg) != "" {
				return false
			}
			if !rd.holds(value, arg, t.In, l.subst) {
				return false
			}
		default:
			if !slices.Contains(t.Values, rd.writtenValue(value, fieldOf(st, t.Column))) {
				return false
			}
		}
	}
	return true
}

// fieldOf returns the field of st stored in column col, or nil.
func fieldOf(st *types.Struct, col string) *types.Var {
	for i := 0; i < st.NumFields(); i++ {
		if schema.FieldColumn(st, i) == col {
			return st.Field(i)
		}
	}
	return nil
}

// holds reports whether value, what a literal sets a field to (nil: left at its zero value),
// is what arg selects by: the same constant, or the same expression of the same variables;
// for an IN test, one of the constants of arg's slice literal.
func (rd Reader) holds(value, arg ast.Expr, in bool, subst map[types.Object]ast.Expr) bool {
	if in {
		lit, ok := ast.Unparen(arg).(*ast.CompositeLit)
		if !ok {
			return false
		}
		return slices.ContainsFunc(lit.Elts, func(e ast.Expr) bool { return rd.holds(value, e, false, subst) })
	}
	a := rd.info().Types[arg].Value
	if value == nil {
		return a != nil && zeroConstant(a)
	}
	if v := rd.info().Types[value].Value; a != nil || v != nil {
		return equalConstants(a, v)
	}
	return rd.sameExpr(value, arg, subst)
}

// resolved returns, for an argument of a read that is a parameter of the helper it is made
// in (subst's), the caller's argument; arg itself otherwise.
func (rd Reader) resolved(arg ast.Expr, subst map[types.Object]ast.Expr) ast.Expr {
	if id, ok := ast.Unparen(arg).(*ast.Ident); ok {
		if e, ok := subst[rd.info().ObjectOf(id)]; ok {
			return e
		}
	}
	return arg
}

// writtenValue writes the constant a literal sets field f to as SQL (sqlConstant), the zero
// value's for a field it leaves out; "" when it is not a constant.
func (rd Reader) writtenValue(value ast.Expr, f *types.Var) string {
	if value != nil {
		return sqlConstant(rd.info().Types[value].Value)
	}
	b, ok := f.Type().Underlying().(*types.Basic)
	switch {
	case !ok:
		return ""
	case b.Info()&types.IsNumeric != 0:
		return "0"
	case b.Info()&types.IsString != 0:
		return "''"
	case b.Info()&types.IsBoolean != 0:
		return "FALSE"
	}
	return ""
}

// zeroConstant reports whether v is the zero value of its kind: 0, "", false.
func zeroConstant(v constant.Value) bool {
	switch v.Kind() {
	case constant.Int, constant.Float:
		return constant.Sign(v) == 0
	case constant.String:
		return constant.StringVal(v) == ""
	case constant.Bool:
		return !constant.BoolVal(v)
	}
	return false
}

// sameExpr reports whether a and b are the same expression of the same variables: names,
// selectors, index and call expressions alike, part by part. A name in b that subst holds
// (a helper's parameter) stands for the expression it maps to, a's side of the call.
func (rd Reader) sameExpr(a, b ast.Expr, subst map[types.Object]ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	if y, ok := b.(*ast.Ident); ok {
		if e, ok := subst[rd.info().ObjectOf(y)]; ok {
			return rd.sameExpr(a, e, nil)
		}
	}
	switch x := a.(type) {
	case *ast.Ident:
		y, ok := b.(*ast.Ident)
		return ok && rd.info().ObjectOf(x) != nil && rd.info().ObjectOf(x) == rd.info().ObjectOf(y)
	case *ast.SelectorExpr:
		y, ok := b.(*ast.SelectorExpr)
		return ok && x.Sel.Name == y.Sel.Name && rd.info().ObjectOf(x.Sel) == rd.info().ObjectOf(y.Sel) && rd.sameExpr(x.X, y.X, subst)
	case *ast.StarExpr:
		y, ok := b.(*ast.StarExpr)
		return ok && rd.sameExpr(x.X, y.X, subst)
	case *ast.IndexExpr:
		y, ok := b.(*ast.IndexExpr)
		return ok && rd.sameExpr(x.X, y.X, subst) && rd.sameExpr(x.Index, y.Index, subst)
	case *ast.BasicLit:
		y, ok := b.(*ast.BasicLit)
		return ok && x.Value == y.Value
	case *ast.CallExpr:
		y, ok := b.(*ast.CallExpr)
		if !ok || len(x.Args) != len(y.Args) || !rd.sameExpr(x.Fun, y.Fun, subst) {
			return false
		}
		for i := range x.Args {
			if !rd.sameExpr(x.Args[i], y.Args[i], subst) {
				return false
			}
		}
		return true
	}
	return false
}

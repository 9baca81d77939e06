// The delete-then-insert "replace" pattern: an INSERT without conflict handling, made on a
// transaction after a DELETE on the same transaction of the rows with the key the INSERT
// writes, converges (sqlstmt.DeleteKeys, sqlstmt.InsertBinds).

package statements

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// Replaces returns, for an INSERT statement call (the statement its argument at textArg,
// its arguments after), the detail of the protected effect when an earlier call on the same
// transaction variable, in the same function, deletes the rows it inserts: DELETE FROM the
// same table WHERE only equalities of columns with placeholders, each column written by the
// INSERT and bound to the same expression (the same variable, field or constant). A repeat
// deletes what the first run inserted and inserts it again. "" otherwise.
func (rd Reader) Replaces(call *ast.CallExpr, textArg int) string {
	if textArg >= len(call.Args) {
		return ""
	}
	table, binds, ok := sqlstmt.InsertBinds(rd.Defs.Text(call.Args[textArg]))
	if !ok {
		return ""
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	tx := rd.localVar(sel.X)
	if tx == nil {
		return ""
	}
	for _, c := range rd.Defs.CallsOn(tx) {
		if c.Pos() >= call.Pos() {
			continue
		}
		if cs, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); !ok || rd.localVar(cs.X) != tx {
			continue // a call on a field of it, or an argument
		}
		text, params, ok := rd.execText(c)
		if !ok {
			continue
		}
		dTable, keys, ok := sqlstmt.DeleteKeys(text)
		if !ok || !strings.EqualFold(dTable, table) {
			continue
		}
		if rd.sameKeys(keys, params, binds, call.Args[textArg+1:]) {
			return "INSERT after a DELETE of the same rows on the transaction (" + keyNames(keys) + "): a repeat replaces them"
		}
	}
	return ""
}

// sameKeys reports whether every key column of the DELETE is bound by the INSERT to the
// same expression as the DELETE's placeholder.
func (rd Reader) sameKeys(keys []sqlstmt.ColumnParam, dArgs []ast.Expr, binds []sqlstmt.ColumnParam, iArgs []ast.Expr) bool {
	for _, k := range keys {
		found := false
		for _, b := range binds {
			if !strings.EqualFold(b.Column, k.Column) {
				continue
			}
			found = k.Param <= len(dArgs) && b.Param <= len(iArgs) && rd.sameValue(dArgs[k.Param-1], iArgs[b.Param-1])
			break
		}
		if !found {
			return false
		}
	}
	return len(keys) > 0
}

// sameValue reports whether two argument expressions name the same value: the same
// variable, a field chain on it, or the same constant. A call (uuid.NewString()) is never
// the same value twice.
func (rd Reader) sameValue(a, b ast.Expr) bool {
	a, b = ast.Unparen(a), ast.Unparen(b)
	if ta, tb := rd.info().Types[a], rd.info().Types[b]; ta.Value != nil && tb.Value != nil {
		return ta.Value.ExactString() == tb.Value.ExactString()
	}
	switch x := a.(type) {
	case *ast.Ident:
		y, ok := b.(*ast.Ident)
		return ok && rd.info().Uses[x] != nil && rd.info().Uses[x] == rd.info().Uses[y] && rd.assignedOnce(x)
	case *ast.SelectorExpr:
		y, ok := b.(*ast.SelectorExpr)
		return ok && x.Sel.Name == y.Sel.Name && rd.info().Uses[x.Sel] == rd.info().Uses[y.Sel] && rd.sameValue(x.X, y.X)
	}
	return false
}

// assignedOnce reports whether the variable id names has at most one definition in view:
// a variable assigned between the DELETE and the INSERT may hold another key.
func (rd Reader) assignedOnce(id *ast.Ident) bool {
	v, ok := rd.info().Uses[id].(*types.Var)
	return ok && len(rd.Defs.Defs(v)) <= 1
}

// localVar returns the variable e names when it is a function's local variable or
// parameter (the transaction a function was given or began): the calls on it in view are
// that function's.
func (rd Reader) localVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := rd.info().Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}

func keyNames(keys []sqlstmt.ColumnParam) string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.Column
	}
	return strings.Join(names, ", ")
}

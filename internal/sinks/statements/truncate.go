// The replace-all pattern: a bulk COPY into a table that the same function emptied before
// (TRUNCATE, or a DELETE with no WHERE) on the same connection converges: a repeat empties
// the table again and copies the same rows. So does a COPY into a temporary table the
// function made there: the session's scratch, empty when made.

package statements

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/model"
)

// ReplacesAll returns, for a bulk copy call into the table its argument at tableArg names
// (pgx.Identifier{"bids"}), the detail of the protected effect when an earlier call in the
// same function, on the same connection expression (db.pool, tx), runs a statement that
// empties that table; "" otherwise.
func (rd Reader) ReplacesAll(call *ast.CallExpr, tableArg int, at func(token.Pos) string) string {
	table := rd.copyTable(defuse.ArgAt(call, tableArg))
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if table == "" || !ok {
		return ""
	}
	root := rd.Defs.RootVar(sel.X)
	if root == nil {
		return ""
	}
	conn := types.ExprString(sel.X)
	for _, c := range rd.Defs.CallsOn(root) {
		cs, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if c.Pos() >= call.Pos() || !ok || types.ExprString(cs.X) != conn {
			continue
		}
		if text, _, ok := rd.execText(c); ok && empties(text, table) {
			return "bulk COPY into " + table + " after the statement at " + at(c.Pos()) + " empties it: a repeat replaces its rows"
		}
	}
	return ""
}

// execText returns the statement text of a call of a modelled SQL Exec sink and the
// arguments after it (the statement's parameters), and whether it is one.
func (rd Reader) execText(c *ast.CallExpr) (string, []ast.Expr, bool) {
	fn, ok := typeutil.Callee(rd.info(), c).(*types.Func)
	if !ok {
		return "", nil, false
	}
	s := rd.Models.Of(fn).Sink
	if s == nil || s.Shape != model.SQLExec || s.Arg >= len(c.Args) {
		return "", nil, false
	}
	return rd.Defs.Text(c.Args[s.Arg]), c.Args[s.Arg+1:], true
}

// copyTable returns the table a bulk copy names: the last part of a pgx.Identifier literal
// ({"public", "bids"}), or a constant string; "" when not known.
func (rd Reader) copyTable(e ast.Expr) string {
	if e == nil {
		return ""
	}
	if t := rd.Defs.ConstString(e); t != "" {
		return t
	}
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return ""
	}
	return rd.Defs.ConstString(lit.Elts[len(lit.Elts)-1])
}

// empties reports whether SQL text (one or more statements) empties table: TRUNCATE [TABLE]
// [ONLY] naming it among its tables, DELETE FROM it with no WHERE, or CREATE [GLOBAL |
// LOCAL] TEMP[ORARY] TABLE [IF NOT EXISTS] it: a temporary table starts empty in each
// session that makes it (a staging table a COPY fills before an INSERT ... SELECT).
func empties(text, table string) bool {
	for _, stmt := range strings.Split(text, ";") {
		w := strings.Fields(strings.ReplaceAll(strings.ReplaceAll(stmt, ",", " , "), "(", " ( "))
		if len(w) < 2 {
			continue
		}
		if name, ok := temporaryTable(w); ok && sameTable(name, table) {
			return true
		}
		switch {
		case strings.EqualFold(w[0], "TRUNCATE"):
			for _, name := range w[1:] {
				if sameTable(name, table) {
					return true
				}
			}
		case strings.EqualFold(w[0], "DELETE") && len(w) == 3 && strings.EqualFold(w[1], "FROM") && sameTable(w[2], table):
			return true
		}
	}
	return false
}

// temporaryTable returns the table a CREATE TEMPORARY TABLE statement's words w make.
func temporaryTable(w []string) (string, bool) {
	if len(w) < 4 || !strings.EqualFold(w[0], "CREATE") {
		return "", false
	}
	i := 1
	if strings.EqualFold(w[i], "GLOBAL") || strings.EqualFold(w[i], "LOCAL") {
		i++
	}
	if i+2 >= len(w) || !(strings.EqualFold(w[i], "TEMP") || strings.EqualFold(w[i], "TEMPORARY")) || !strings.EqualFold(w[i+1], "TABLE") {
		return "", false
	}
	i += 2
	if i+3 < len(w) && strings.EqualFold(w[i], "IF") && strings.EqualFold(w[i+1], "NOT") && strings.EqualFold(w[i+2], "EXISTS") {
		i += 3
	}
	return w[i], true
}

// sameTable reports whether an SQL name (quoted, qualified by a schema) is table.
func sameTable(name, table string) bool {
	name = strings.Trim(name, `"`+"`")
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = strings.Trim(name[i+1:], `"`+"`")
	}
	return strings.EqualFold(name, strings.Trim(table, `"`))
}

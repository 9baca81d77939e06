// SQL gates: the state the application writes itself, checked with an early return. A
// conditional UPDATE, a DELETE or an INSERT ... ON CONFLICT DO NOTHING changes no row the
// second time, so its affected-row count (or, with RETURNING, the row it returns) says
// whether this delivery made the change: checked with an early return, it claims the job as
// a Redis SETNX does. A SELECT ... FOR UPDATE on a transaction, whose row is checked with an
// early return and written in the same transaction, gates what commits with it.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/sqlstmt"
	"github.com/chokaq/idemlint/internal/strval"
)

// claim is a claim found behind a condition.
type claim struct {
	at   token.Pos // the call that makes it
	what string    // "conditional UPDATE", "Redis SETNX"
	why  string    // why its key identifies nothing; "" when it does
	weak string    // why it is weaker than a claim of one row (Gate.Weak); "" when it is not
	// tx is the transaction the claim is made on (nil: none in view): it then holds only
	// until that transaction commits, and guards what commits with it.
	tx *types.Var
}

// sqlClaimFailed finds the SQL claim whose failure makes cond true: a count of zero
// (tag.RowsAffected() == 0, n < 1), a claim reported false (!updated), or no row returned
// (errors.Is(err, pgx.ErrNoRows)).
func (rd Reader) sqlClaimFailed(cond ast.Expr, en env, of ClaimOf) *claim {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return rd.sqlAffirmed(c.X, en, of)
		}
	case *ast.BinaryExpr:
		if c.Op == token.LOR {
			if cl := rd.sqlClaimFailed(c.X, en, of); cl != nil {
				return cl
			}
			return rd.sqlClaimFailed(c.Y, en, of)
		}
		if c.Op == token.EQL && rd.Defs.IsFalse(c.Y) {
			return rd.sqlAffirmed(c.X, en, of)
		}
		if x, op, n, ok := rd.countTest(c); ok && countFails(op, n) {
			return rd.sqlCount(x, en, of)
		}
		if c.Op == token.EQL {
			if isNoRows(rd.info(), c.Y) {
				return rd.sqlNoRows(c.X, en, of)
			}
			if isNoRows(rd.info(), c.X) {
				return rd.sqlNoRows(c.Y, en, of)
			}
		}
	case *ast.CallExpr:
		if fn, ok := typeutil.Callee(rd.info(), c).(*types.Func); ok && fn.FullName() == "errors.Is" && len(c.Args) == 2 && isNoRows(rd.info(), c.Args[1]) {
			return rd.sqlNoRows(c.Args[0], en, of)
		}
		if u := rd.entNotFound(c, en); u != nil {
			return rd.ormGateCall(u)
		}
	}
	return nil
}

// countTest reads `x OP n` (or `n OP x`, flipped) with a constant n.
func (rd Reader) countTest(c *ast.BinaryExpr) (ast.Expr, token.Token, int, bool) {
	if n, ok := rd.Defs.ConstInt(c.Y); ok {
		return c.X, c.Op, n, true
	}
	if n, ok := rd.Defs.ConstInt(c.X); ok {
		flip := map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ, token.GEQ: token.LEQ, token.EQL: token.EQL, token.NEQ: token.NEQ}
		if op, ok := flip[c.Op]; ok {
			return c.Y, op, n, true
		}
	}
	return nil, 0, 0, false
}

// countFails reports whether `count OP n` is true exactly when no row changed (for the
// counts a claim gives, 0 or more).
func countFails(op token.Token, n int) bool {
	switch op {
	case token.EQL, token.LEQ:
		return n == 0
	case token.LSS, token.NEQ:
		return n == 1
	}
	return false
}

// countClaims reports whether `count OP n` is true exactly when a row changed.
func countClaims(op token.Token, n int) bool {
	switch op {
	case token.GTR, token.NEQ:
		return n == 0
	case token.GEQ, token.EQL:
		return n == 1
	}
	return false
}

// sqlAffirmed finds the SQL claim that a boolean e says was made: a count test
// (tag.RowsAffected() > 0), or a helper's result that reports a claim.
func (rd Reader) sqlAffirmed(e ast.Expr, en env, of ClaimOf) *claim {
	if v := rd.local(e); v != nil && isBool(v.Type()) {
		if cl := rd.scannedClaim(v, en); cl != nil {
			return cl
		}
	}
	x, idx := rd.resolve(e, en)
	switch x := x.(type) {
	case *ast.BinaryExpr:
		if y, op, n, ok := rd.countTest(x); ok && countClaims(op, n) {
			return rd.sqlCount(y, en, of)
		}
	case *ast.CallExpr:
		return rd.helperClaim(x, idx, effect.ReadTrue, of)
	}
	return nil
}

// sqlCount finds the SQL claim whose affected-row count e is: RowsAffected() of what a
// gate statement returned (a pgconn.CommandTag, a sql.Result), or a helper's count.
func (rd Reader) sqlCount(e ast.Expr, en env, of ClaimOf) *claim {
	if rows := rd.lenOf(e); rows != nil {
		return rd.rowsClaim(rows, en, of) // len(claimed) == 0: the sweep returned no row
	}
	if u := rd.ormRowsAffected(e, en); u != nil {
		return rd.ormGateCall(u) // res.RowsAffected of a gorm update
	}
	x, idx := rd.resolve(e, en)
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "RowsAffected" && len(call.Args) == 0 && idx == 0 {
		stmt, i := rd.resolve(sel.X, en)
		if c, ok := stmt.(*ast.CallExpr); ok && i == 0 {
			if cl, returning := rd.sqlGateCall(c); cl != nil && !returning {
				return cl
			}
			return rd.ormGateCall(c) // a bun update's result
		}
		return nil
	}
	if idx == 0 {
		if cl := rd.ormGateCall(call); cl != nil {
			return cl // n, err := client.Job.Update().Where(...).SetStatus(...).Save(ctx)
		}
	}
	return rd.helperClaim(call, idx, effect.ReadCount, of)
}

// sqlNoRows finds the SQL claim whose "no row" error e is: Scan of the row a gate statement
// with RETURNING returned, or a helper's error that reports a claim.
func (rd Reader) sqlNoRows(e ast.Expr, en env, of ClaimOf) *claim {
	x, idx := rd.resolve(e, en)
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Scan" && idx == 0 {
		row, i := rd.resolve(sel.X, en)
		if c, ok := row.(*ast.CallExpr); ok && i == 0 {
			if cl, returning := rd.sqlGateCall(c); cl != nil && returning {
				return cl
			}
		}
		return nil
	}
	return rd.helperClaim(call, idx, effect.ReadNoRows, of)
}

// helperClaim returns the claim of a call of a function whose result idx reports one, read
// as read.
func (rd Reader) helperClaim(call *ast.CallExpr, idx int, read effect.ClaimRead, of ClaimOf) *claim {
	fn, ok := typeutil.Callee(rd.info(), call).(*types.Func)
	if !ok || of == nil {
		return nil
	}
	c := of(fn.Origin())
	if c == nil || int(c.Result) != idx || c.Read != read {
		return nil
	}
	return &claim{at: call.Pos(), what: effect.FuncName(fn, nil) + " " + c.What, tx: rd.txArg(call)}
}

// txArg returns the transaction a call is given (its receiver or an argument of a modelled
// transaction type), or nil.
func (rd Reader) txArg(call *ast.CallExpr) *types.Var {
	exprs := append([]ast.Expr(nil), call.Args...)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		exprs = append(exprs, sel.X)
	}
	for _, e := range exprs {
		if v := rd.Defs.RootVar(e); v != nil && rd.isTx(v.Type()) {
			return v
		}
	}
	return nil
}

// isTx reports whether t is (a pointer to) a modelled transaction type.
func (rd Reader) isTx(t types.Type) bool {
	named, ok := types.Unalias(defuse.Deref(t)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	return rd.Models.Index.TxMode(named.Obj().Pkg().Path()+"."+named.Obj().Name()) == effect.TxIn
}

// isNoRows reports whether e names a "no rows" error variable: database/sql's and pgx's
// ErrNoRows, a package's own of that name, or a store's "not found" sentinel
// (ErrRecordNotFound, ErrNotFound: notFound). A store that defines its own
// (`var ErrRecordNotFound = pgx.ErrNoRows`, or one its queries return for no rows) is
// read across packages by name, where the initializer is not in view: after a conditional
// statement, not found can only mean that no row matched.
func isNoRows(info *types.Info, e ast.Expr) bool {
	v := namedVar(info, e)
	return v != nil && v.Name() == "ErrNoRows" || notFound(info, e)
}

// namedVar returns the variable e names (ErrNoRows, sql.ErrNoRows), or nil.
func namedVar(info *types.Info, e ast.Expr) *types.Var {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return nil
	}
	v, _ := info.Uses[id].(*types.Var)
	return v
}

// statementCall returns the statement text argument of an SQL call: a modelled Exec or
// Query sink, or an Exec/Query method of an interface (sqlc's DBTX) given a string.
func (rd Reader) statementCall(call *ast.CallExpr) (ast.Expr, bool) {
	fn, ok := typeutil.Callee(rd.info(), call).(*types.Func)
	if !ok {
		return nil, false
	}
	if s := rd.Models.Of(fn.Origin()).Sink; s != nil {
		if s.Shape == model.SQLExec || s.Shape == model.SQLQuery {
			return defuse.ArgAt(call, s.Arg), true
		}
		return nil, false
	}
	recv := fn.Signature().Recv()
	if recv == nil || !types.IsInterface(recv.Type()) || !sqlMethod(fn.Name()) {
		return nil, false
	}
	for i, a := range call.Args {
		if i < fn.Signature().Params().Len() && defuse.IsString(fn.Signature().Params().At(i).Type()) {
			return a, true
		}
	}
	return nil, false
}

func sqlMethod(name string) bool {
	switch name {
	case "Exec", "ExecContext", "QueryRow", "QueryRowContext":
		return true
	}
	return false
}

// sqlGateCall returns the claim an SQL call makes when its statement changes no row the
// second time (a conditional UPDATE, a DELETE, an INSERT that does nothing on a conflict),
// and whether the statement returns the rows it changes (RETURNING).
func (rd Reader) sqlGateCall(call *ast.CallExpr) (*claim, bool) {
	arg, ok := rd.statementCall(call)
	if !ok || arg == nil {
		return nil, false
	}
	text := rd.Defs.Text(arg)
	what := gateStatement(text)
	if what == "" {
		return nil, false
	}
	cl := &claim{at: call.Pos(), what: what}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if v := rd.Defs.RootVar(sel.X); v != nil && rd.isTx(v.Type()) {
			cl.tx = v
		}
	}
	if !strings.Contains(text, strval.Hole) && len(call.Args) <= argIndex(call, arg)+1 {
		cl.why = "its statement names the same rows for every job, so the first job turns the others away"
	} else if what == "conditional UPDATE" {
		cl.weak = rd.unkeyedClaim(text)
	}
	return cl, containsWord(text, "RETURNING")
}

func argIndex(call *ast.CallExpr, arg ast.Expr) int {
	for i, a := range call.Args {
		if a == arg {
			return i
		}
	}
	return len(call.Args)
}

// gateStatement names a statement that changes no row when it runs a second time, or "".
func gateStatement(text string) string {
	r := sqlstmt.Classify(text)
	switch {
	case r.Class == sqlstmt.Converging && r.Reason == "conditional state transition":
		return "conditional UPDATE"
	case r.Class == sqlstmt.Converging && strings.HasPrefix(r.Reason, "DELETE"):
		return "DELETE"
	case r.Class == sqlstmt.Guarded && containsWord(text, "NOTHING") && containsWord(text, "INSERT"):
		return "INSERT ... ON CONFLICT DO NOTHING"
	case r.Class == sqlstmt.Guarded && r.Reason == sqlstmt.ReasonTransitionUpsert:
		// ON CONFLICT DO UPDATE SET state = 'pending' WHERE t.state = 'failed': a second
		// run finds the first's row moved on, updates nothing and inserts nothing.
		return "INSERT ... ON CONFLICT DO UPDATE ... WHERE"
	case r.Class == sqlstmt.Guarded && containsWord(text, "IGNORE") && containsWord(text, "INSERT"):
		return "INSERT IGNORE"
	case r.Class == sqlstmt.Guarded && r.Reason == "insert guarded by NOT EXISTS":
		// INSERT ... SELECT ... WHERE NOT EXISTS (SELECT 1 FROM the same table ...): the
		// second run finds the first's row and inserts nothing.
		return "INSERT ... WHERE NOT EXISTS"
	}
	return ""
}

// lockingRead returns the table a SELECT ... FOR UPDATE (or FOR NO KEY UPDATE) locks rows
// of, and whether the text is one.
func lockingRead(text string) (string, bool) {
	if r := sqlstmt.Classify(text); r.Class != sqlstmt.Read {
		return "", false
	}
	w := words(text)
	locks := false
	for i := 0; i+1 < len(w); i++ {
		if w[i] == "FOR" && (w[i+1] == "UPDATE" || (w[i+1] == "NO" && i+3 < len(w) && w[i+3] == "UPDATE")) {
			locks = true
		}
	}
	if !locks {
		return "", false
	}
	return wordAfter(w, "FROM"), true
}

// writesTable reports whether a statement writes table (UPDATE t, INSERT INTO t, DELETE
// FROM t), by words.
func writesTable(text, table string) bool {
	if r := sqlstmt.Classify(text); r.Class == sqlstmt.Read || table == "" {
		return false
	}
	w := words(text)
	for i := 0; i+1 < len(w); i++ {
		switch w[i] {
		case "UPDATE", "INTO", "FROM":
			if w[i+1] == table {
				return true
			}
		}
	}
	return false
}

// words splits statement text into upper-case words and names, a schema dropped
// ("public.orders" is ORDERS), quotes removed.
func words(text string) []string {
	f := strings.FieldsFunc(strings.ToUpper(text), func(r rune) bool {
		return !(r == '_' || r == '.' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	for i, s := range f {
		f[i] = s[strings.LastIndexByte(s, '.')+1:]
	}
	return f
}

func wordAfter(w []string, k string) string {
	for i := 0; i+1 < len(w); i++ {
		if w[i] == k {
			return w[i+1]
		}
	}
	return ""
}

func containsWord(text, k string) bool {
	for _, s := range words(text) {
		if s == k {
			return true
		}
	}
	return false
}

// unkeyedClaim says why a conditional UPDATE claims more than one row, or "": its WHERE
// fixes columns of which no unique key of its table (as the schema declares it) is made.
// Such a claim takes every matching row at once, and a matching row added before the
// redelivery (another pending order of the same customer) is claimed by it, so what the
// gate guards runs again for the same job. A table the schema does not declare, or a
// condition not read, says nothing.
func (rd Reader) unkeyedClaim(text string) string {
	table, cols, ok := sqlstmt.WhereEquals(text)
	if !ok {
		return ""
	}
	t := rd.Schema.Table(table)
	if t == nil {
		return ""
	}
	cols = schema.NormColumns(cols)
	var keys []string
	for _, k := range t.Keys {
		if k.Covers(cols) {
			return ""
		}
		keys = append(keys, k.Describe())
	}
	fixed := "nothing"
	if len(cols) > 0 {
		fixed = strings.Join(cols, ", ")
	}
	have := "it declares no unique key (" + t.At.String() + ")"
	if len(keys) > 0 {
		have = "its keys are " + strings.Join(keys, "; ")
	}
	return "its WHERE picks " + t.Name + " rows by " + fixed + ", which no unique key of " + t.Name + " covers (" + have +
		"), so it claims every matching row, and one added before a redelivery is claimed by it again: add the job's key to the WHERE, or claim by a unique key"
}

// scannedClaim returns the SQL claim a bool variable v is scanned from before the
// condition: a conditional UPDATE in a CTE whose statement selects whether it changed a row
// (WITH u AS (UPDATE ... WHERE id = $1 AND status = 'pending' RETURNING id) SELECT EXISTS
// (SELECT 1 FROM u)), its row's Scan(&v) in an earlier statement of an enclosing block. nil
// otherwise.
func (rd Reader) scannedClaim(v *types.Var, en env) *claim {
	for b := len(en.blocks) - 1; b >= 0; b-- {
		blk := en.blocks[b]
		for k := blk.idx - 1; k >= 0; k-- {
			var found *claim
			ast.Inspect(blk.list[k], func(x ast.Node) bool {
				if _, lit := x.(*ast.FuncLit); lit || found != nil {
					return false
				}
				call, ok := x.(*ast.CallExpr)
				if !ok || len(call.Args) != 1 {
					return true
				}
				sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
				u, isAddr := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
				if !ok || sel.Sel.Name != "Scan" || !isAddr || u.Op != token.AND || rd.local(u.X) != v {
					return true
				}
				q, _ := rd.resolve(sel.X, en)
				if qc, ok := q.(*ast.CallExpr); ok {
					if arg, ok := rd.statementCall(qc); ok && arg != nil && selectsExists(rd.Defs.Text(arg)) {
						found, _ = rd.sqlGateCall(qc)
					}
				}
				return false
			})
			if found != nil {
				return found
			}
		}
	}
	return nil
}

// selectsExists reports whether a statement's result is one EXISTS: SELECT EXISTS (...).
func selectsExists(text string) bool {
	f := strings.Fields(strings.ToUpper(text))
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "SELECT" && (f[i+1] == "EXISTS" || strings.HasPrefix(f[i+1], "EXISTS(")) {
			return true
		}
	}
	return false
}

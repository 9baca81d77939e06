// SQL gates: the state the application writes itself, checked with an early return. A
// conditional UPDATE, a DELETE or an INSERT ... ON CONFLICT DO NOTHING changes no row the
// second time, so its affected-row count (or, with RETURNING, the row it returns) says
// whether this delivery made the change: checked with an early return, it claims the job as
// a Redis SETNX does. A SELECT ... FOR UPDATE on a transaction, whose row is checked with an
// early return and written in the same transaction, gates what commits with it.

package sinks

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sqlstmt"
	"github.com/chokaq/idemlint/internal/strval"
)

// ClaimOf returns what a function's result says of a claim made in its body (a helper that
// returns `updated bool` from a conditional UPDATE), or nil: the functions of the package
// and, through their facts, of its dependencies.
type ClaimOf func(*types.Func) *effect.Claim

// claim is a claim found behind a condition.
type claim struct {
	at   token.Pos // the call that makes it
	what string    // "conditional UPDATE", "Redis SETNX"
	why  string    // why its key identifies nothing; "" when it does
	// tx is the transaction the claim is made on (nil: none in view): it then holds only
	// until that transaction commits, and guards what commits with it.
	tx *types.Var
}

// env is where a condition is read: the statement lists that enclose it, innermost last,
// each with the index of the statement that holds the condition, and the if's own init.
type env struct {
	blocks []envBlock
	init   ast.Stmt
	end    token.Pos // the end of the innermost block
}

type envBlock struct {
	list []ast.Stmt
	idx  int
}

// valueOf returns the expression last assigned to v before the condition, and which of
// its results v is: the if's init, then the statements before it in each enclosing block,
// innermost first; else v's single definition anywhere.
func (j *Judge) valueOf(v *types.Var, en env) (ast.Expr, int) {
	if en.init != nil {
		if e, i, ok := j.assignedIn(en.init, v); ok {
			return e, i
		}
	}
	for b := len(en.blocks) - 1; b >= 0; b-- {
		blk := en.blocks[b]
		for k := blk.idx - 1; k >= 0; k-- {
			if e, i, ok := j.assignedIn(blk.list[k], v); ok {
				return e, i
			}
		}
	}
	return j.Defs.Def(v), 0
}

// assignedIn reports whether st assigns v, and what: the expression and v's result index.
func (j *Judge) assignedIn(st ast.Stmt, v *types.Var) (ast.Expr, int, bool) {
	as, ok := st.(*ast.AssignStmt)
	if !ok {
		return nil, 0, false
	}
	for i, l := range as.Lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok || j.info().ObjectOf(id) != v {
			continue
		}
		switch {
		case len(as.Lhs) == len(as.Rhs):
			return as.Rhs[i], 0, true
		case len(as.Rhs) == 1:
			return as.Rhs[0], i, true
		}
		return nil, 0, true
	}
	return nil, 0, false
}

// local returns the local variable e names, or nil.
func (j *Judge) local(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := j.info().Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	return v
}

// resolve follows a local variable to what it was last assigned; other expressions are
// returned as they are, with result index 0.
func (j *Judge) resolve(e ast.Expr, en env) (ast.Expr, int) {
	for depth := 0; depth <= defuse.MaxDepth; depth++ {
		v := j.local(e)
		if v == nil {
			return ast.Unparen(e), 0
		}
		d, i := j.valueOf(v, en)
		if d == nil || i != 0 {
			return ast.Unparen(d), i
		}
		e = d
	}
	return nil, 0
}

// sqlClaimFailed finds the SQL claim whose failure makes cond true: a count of zero
// (tag.RowsAffected() == 0, n < 1), a claim reported false (!updated), or no row returned
// (errors.Is(err, pgx.ErrNoRows)).
func (j *Judge) sqlClaimFailed(cond ast.Expr, en env, of ClaimOf) *claim {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return j.sqlAffirmed(c.X, en, of)
		}
	case *ast.BinaryExpr:
		if c.Op == token.LOR {
			if cl := j.sqlClaimFailed(c.X, en, of); cl != nil {
				return cl
			}
			return j.sqlClaimFailed(c.Y, en, of)
		}
		if c.Op == token.EQL && j.Defs.IsFalse(c.Y) {
			return j.sqlAffirmed(c.X, en, of)
		}
		if x, op, n, ok := j.countTest(c); ok && countFails(op, n) {
			return j.sqlCount(x, en, of)
		}
		if c.Op == token.EQL {
			if isNoRows(j.info(), c.Y) {
				return j.sqlNoRows(c.X, en, of)
			}
			if isNoRows(j.info(), c.X) {
				return j.sqlNoRows(c.Y, en, of)
			}
		}
	case *ast.CallExpr:
		if fn, ok := typeutil.Callee(j.info(), c).(*types.Func); ok && fn.FullName() == "errors.Is" && len(c.Args) == 2 && isNoRows(j.info(), c.Args[1]) {
			return j.sqlNoRows(c.Args[0], en, of)
		}
	}
	return nil
}

// countTest reads `x OP n` (or `n OP x`, flipped) with a constant n.
func (j *Judge) countTest(c *ast.BinaryExpr) (ast.Expr, token.Token, int, bool) {
	if n, ok := j.Defs.ConstInt(c.Y); ok {
		return c.X, c.Op, n, true
	}
	if n, ok := j.Defs.ConstInt(c.X); ok {
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
func (j *Judge) sqlAffirmed(e ast.Expr, en env, of ClaimOf) *claim {
	x, idx := j.resolve(e, en)
	switch x := x.(type) {
	case *ast.BinaryExpr:
		if y, op, n, ok := j.countTest(x); ok && countClaims(op, n) {
			return j.sqlCount(y, en, of)
		}
	case *ast.CallExpr:
		return j.helperClaim(x, idx, effect.ReadTrue, of)
	}
	return nil
}

// sqlCount finds the SQL claim whose affected-row count e is: RowsAffected() of what a
// gate statement returned (a pgconn.CommandTag, a sql.Result), or a helper's count.
func (j *Judge) sqlCount(e ast.Expr, en env, of ClaimOf) *claim {
	x, idx := j.resolve(e, en)
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "RowsAffected" && len(call.Args) == 0 && idx == 0 {
		stmt, i := j.resolve(sel.X, en)
		if c, ok := stmt.(*ast.CallExpr); ok && i == 0 {
			if cl, returning := j.sqlGateCall(c); cl != nil && !returning {
				return cl
			}
		}
		return nil
	}
	return j.helperClaim(call, idx, effect.ReadCount, of)
}

// sqlNoRows finds the SQL claim whose "no row" error e is: Scan of the row a gate statement
// with RETURNING returned, or a helper's error that reports a claim.
func (j *Judge) sqlNoRows(e ast.Expr, en env, of ClaimOf) *claim {
	x, idx := j.resolve(e, en)
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return nil
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Scan" && idx == 0 {
		row, i := j.resolve(sel.X, en)
		if c, ok := row.(*ast.CallExpr); ok && i == 0 {
			if cl, returning := j.sqlGateCall(c); cl != nil && returning {
				return cl
			}
		}
		return nil
	}
	return j.helperClaim(call, idx, effect.ReadNoRows, of)
}

// helperClaim returns the claim of a call of a function whose result idx reports one, read
// as read.
func (j *Judge) helperClaim(call *ast.CallExpr, idx int, read effect.ClaimRead, of ClaimOf) *claim {
	fn, ok := typeutil.Callee(j.info(), call).(*types.Func)
	if !ok || of == nil {
		return nil
	}
	c := of(fn.Origin())
	if c == nil || int(c.Result) != idx || c.Read != read {
		return nil
	}
	return &claim{at: call.Pos(), what: effect.FuncName(fn, nil) + " " + c.What, tx: j.txArg(call)}
}

// txArg returns the transaction a call is given (its receiver or an argument of a modelled
// transaction type), or nil.
func (j *Judge) txArg(call *ast.CallExpr) *types.Var {
	exprs := append([]ast.Expr(nil), call.Args...)
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		exprs = append(exprs, sel.X)
	}
	for _, e := range exprs {
		if v := j.Defs.RootVar(e); v != nil && j.isTx(v.Type()) {
			return v
		}
	}
	return nil
}

// isTx reports whether t is (a pointer to) a modelled transaction type.
func (j *Judge) isTx(t types.Type) bool {
	named, ok := types.Unalias(defuse.Deref(t)).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return false
	}
	return j.Models.Index.TxMode(named.Obj().Pkg().Path()+"."+named.Obj().Name()) == effect.TxIn
}

// isNoRows reports whether e names a "no rows" error variable (database/sql's and pgx's
// ErrNoRows, or a package's own of that name).
func isNoRows(info *types.Info, e ast.Expr) bool {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return false
	}
	v, ok := info.Uses[id].(*types.Var)
	return ok && v.Name() == "ErrNoRows"
}

// statementCall returns the statement text argument of an SQL call: a modelled Exec or
// Query sink, or an Exec/Query method of an interface (sqlc's DBTX) given a string.
func (j *Judge) statementCall(call *ast.CallExpr) (ast.Expr, bool) {
	fn, ok := typeutil.Callee(j.info(), call).(*types.Func)
	if !ok {
		return nil, false
	}
	if s := j.Models.Of(fn.Origin()).Sink; s != nil {
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
func (j *Judge) sqlGateCall(call *ast.CallExpr) (*claim, bool) {
	arg, ok := j.statementCall(call)
	if !ok || arg == nil {
		return nil, false
	}
	text := j.Defs.Text(arg)
	what := gateStatement(text)
	if what == "" {
		return nil, false
	}
	cl := &claim{at: call.Pos(), what: what}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if v := j.Defs.RootVar(sel.X); v != nil && j.isTx(v.Type()) {
			cl.tx = v
		}
	}
	if !strings.Contains(text, strval.Hole) && len(call.Args) <= argIndex(call, arg)+1 {
		cl.why = "its statement names the same rows for every job, so the first job turns the others away"
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
	case r.Class == sqlstmt.Guarded && containsWord(text, "IGNORE") && containsWord(text, "INSERT"):
		return "INSERT IGNORE"
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

// Rows a helper locks: a repository method that reads a row FOR UPDATE on the database
// handle its caller passes (a parameter, or its receiver, which sqlc's callers make
// WithTx(tx)) and returns it. A caller that passes its transaction holds the lock as if it
// had read the row itself (txgates.go), and its check of the row is a gate once the row's
// state is written on that transaction.

package gates

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// lockedResult returns the claim of a function that returns a row it reads FOR UPDATE on
// a parameter or on its receiver: the first return statement that hands back a variable
// such a read filled (out, &out, *out), by its result. nil otherwise.
func (rd Reader) lockedResult(body *ast.BlockStmt, sig *types.Signature) *effect.Claim {
	reads := rd.helperLocks(body, sig)
	if len(reads) == 0 {
		return nil
	}
	var out *effect.Claim
	ast.Inspect(body, func(x ast.Node) bool {
		if _, lit := x.(*ast.FuncLit); lit || out != nil {
			return false
		}
		ret, ok := x.(*ast.ReturnStmt)
		if !ok || len(ret.Results) != sig.Results().Len() {
			return true
		}
		for i, r := range ret.Results {
			if isError(sig.Results().At(i).Type()) {
				continue
			}
			if l, ok := reads[rd.Defs.RootVar(mapped(r))]; ok && i < 256 {
				out = &effect.Claim{Result: uint8(i), Read: effect.ReadLocked, What: "SELECT ... FOR UPDATE at " + rd.shortPos(l.at), On: l.on, Table: l.table}
				return false
			}
		}
		return true
	})
	return out
}

// mapped returns the value r maps, when r is a call of a mapper given one value (toModel(row),
// Order(row), row.ToDomain()): the row it returns a view of. Otherwise r.
func mapped(r ast.Expr) ast.Expr {
	c, ok := ast.Unparen(r).(*ast.CallExpr)
	if !ok {
		return r
	}
	if len(c.Args) == 1 {
		return c.Args[0]
	}
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && len(c.Args) == 0 {
		return sel.X
	}
	return r
}

// helperLock is a locking read of a helper: where it is, what it is made on (see
// effect.Claim.On) and the table it locks.
type helperLock struct {
	at    token.Pos
	on    uint8
	table string
}

// helperLocks returns the variables a body fills from a locking read made on a parameter
// or on the receiver: scanned from its row (row.Scan(&i.ID, &i.Status)), or the
// destination of a call that reads into one (sqlx.GetContext(ctx, dbi, out, q, id)).
func (rd Reader) helperLocks(body *ast.BlockStmt, sig *types.Signature) map[*types.Var]helperLock {
	var out map[*types.Var]helperLock
	fill := func(dst ast.Expr, l helperLock) {
		if u, ok := ast.Unparen(dst).(*ast.UnaryExpr); ok && u.Op == token.AND {
			dst = u.X
		} else if _, ptr := types.Unalias(rd.info().TypeOf(dst)).(*types.Pointer); !ptr {
			return // a value passed as a destination is not filled
		}
		if v := rd.Defs.RootVar(dst); v != nil {
			if out == nil {
				out = map[*types.Var]helperLock{}
			}
			out[v] = l
		}
	}
	ast.Inspect(body, func(x ast.Node) bool {
		if _, lit := x.(*ast.FuncLit); lit {
			return false
		}
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Scan" {
			if q, table := rd.lockingCall(sel.X); q != nil {
				if on := rd.lockedOn(q, sig); on != 0 {
					for _, a := range call.Args {
						fill(a, helperLock{at: q.Pos(), on: on, table: table})
					}
				}
			}
			return true
		}
		arg, ok := rd.statementCall(call)
		if !ok || arg == nil {
			return true
		}
		table, locks := lockingRead(rd.Defs.Text(arg))
		if !locks {
			return true
		}
		for i, a := range call.Args {
			if a == arg && i > 0 {
				if on := rd.lockedOn(call, sig); on != 0 {
					fill(call.Args[i-1], helperLock{at: call.Pos(), on: on, table: table})
				}
			}
		}
		return true
	})
	return out
}

// lockedOn says what a locking read is made on (see effect.Claim.On): a parameter of sig,
// or its receiver, that is a transaction or an interface with methods a transaction may be
// behind (sqlx.QueryerContext, sqlc's DBTX; not any), as the call's receiver (looked at
// first) or an argument. 0 for none: a read on a pool, or on a handle the function makes
// itself, ends its lock with the statement.
func (rd Reader) lockedOn(call *ast.CallExpr, sig *types.Signature) uint8 {
	var exprs []ast.Expr
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		exprs = append(exprs, sel.X)
	}
	exprs = append(exprs, call.Args...)
	for _, e := range exprs {
		t := rd.info().TypeOf(e)
		if t == nil || defuse.IsContext(t) || !rd.isTx(t) && !handleInterface(t) {
			continue
		}
		v := rd.Defs.RootVar(e)
		if v == nil {
			continue
		}
		if sig.Recv() == v {
			return effect.OnRecv
		}
		for i := 0; i < sig.Params().Len() && i < effect.OnRecv-1; i++ {
			if sig.Params().At(i) == v {
				return uint8(i + 1)
			}
		}
	}
	return 0
}

// handleInterface reports whether t is an interface with methods (a database handle's, as
// far as a type can say), not a type parameter or an empty interface a value of any kind
// passes through.
func handleInterface(t types.Type) bool {
	if _, param := types.Unalias(t).(*types.TypeParam); param {
		return false
	}
	i, ok := t.Underlying().(*types.Interface)
	return ok && i.NumMethods() > 0
}

// helperLockScan returns the variable a call of a helper that returns a locked row fills
// (v of v, err := repo.OrderForUpdate(ctx, tx, id)), and the read, when what the caller
// passes for the helper's handle is a transaction: the transaction itself, or a value made
// from it (q of q := queries.WithTx(tx)). nil otherwise.
func (rd Reader) helperLockScan(as *ast.AssignStmt, sc keys.Scope, of ClaimOf) (*types.Var, *lockRead) {
	if of == nil || len(as.Rhs) != 1 {
		return nil, nil
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return nil, nil
	}
	fn := callee(rd.info(), call)
	if fn == nil {
		return nil, nil
	}
	cl := of(fn.Origin())
	if cl == nil || cl.Read != effect.ReadLocked || int(cl.Result) >= len(as.Lhs) {
		return nil, nil
	}
	var handle ast.Expr
	if cl.On == effect.OnRecv {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			handle = sel.X
		}
	} else if cl.On > 0 && int(cl.On) <= len(call.Args) {
		handle = call.Args[cl.On-1]
	}
	id, _ := ast.Unparen(as.Lhs[cl.Result]).(*ast.Ident)
	if id == nil {
		return nil, nil
	}
	v, _ := rd.info().ObjectOf(id).(*types.Var)
	tx := rd.txOf(handle, sc)
	if v == nil || tx == nil {
		return nil, nil
	}
	return v, &lockRead{at: call.Pos(), tx: tx, table: cl.Table, via: effect.FuncName(fn, nil)}
}

// txOf returns the transaction e is, or the one the value e names was made from (q of q :=
// db.New(pool).WithTx(tx)), or the value itself when it is a parameter of a function
// literal (sc.Func nil) of a type that can be made over a transaction (sqlc's Queries, with
// its WithTx method): the literal a store's execTx runs with q := New(tx), as sqlc's guides
// write it. nil for none.
func (rd Reader) txOf(e ast.Expr, sc keys.Scope) *types.Var {
	if e == nil {
		return nil
	}
	v := rd.Defs.RootVar(e)
	if v == nil {
		return nil
	}
	if rd.isTx(v.Type()) {
		return v
	}
	if d, ok := ast.Unparen(rd.Defs.Def(v)).(*ast.CallExpr); ok {
		return rd.txArg(d)
	}
	if sc.Func == nil && sc.Params[v] && hasMethod(v.Type(), "WithTx") {
		return v
	}
	return nil
}

// hasMethod reports whether t (or a pointer to it) has a method of that name.
func hasMethod(t types.Type, name string) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	_, ok := obj.(*types.Func)
	return ok
}

// marksState reports whether a call writes the job's state, as a lock gate needs: a
// Mark... call given the job's key (MarkDone: its name says the state), or another
// markVerbs call given the key and the state it writes, a string or bool constant or a time
// (UpdateOutboxCompleted(ctx, tx, id, time.Now()), SetStatus(ctx, tx, id, StatusDone)), also
// as a field of its params (paramsGiveState). A
// call given only the key (UpdateRetryCount(ctx, tx, id)) is taken to write nothing the
// check reads.
func (rd Reader) marksState(call *ast.CallExpr, sc keys.Scope) bool {
	if !rd.marks(call, sc) {
		return false
	}
	if startsWithWord(callee(rd.info(), call).Name(), []string{"Mark"}) {
		return true
	}
	for _, a := range call.Args {
		if tv, ok := rd.info().Types[a]; ok && tv.Value != nil && (tv.Value.Kind() == constant.String || tv.Value.Kind() == constant.Bool) {
			return true
		}
		if isTime(rd.info().TypeOf(a)) {
			return true
		}
		if lit, ok := ast.Unparen(a).(*ast.CompositeLit); ok && rd.paramsGiveState(lit) {
			return true
		}
	}
	return false
}

// paramsGiveState reports whether a query's params literal (sqlc's UpdateAuctionParams{ID:
// id, Status: NullAuctionStatus{AuctionStatus: AuctionStatusFailed, Valid: true}}) gives a
// state: a field, at any depth, set to a string or bool constant or a time. The Valid of a
// nullable wrapper says only that the value beside it is set.
func (rd Reader) paramsGiveState(lit *ast.CompositeLit) bool {
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Valid" {
			continue
		}
		v := ast.Unparen(kv.Value)
		if tv, ok := rd.info().Types[v]; ok && tv.Value != nil && (tv.Value.Kind() == constant.String || tv.Value.Kind() == constant.Bool) {
			return true
		}
		if isTime(rd.info().TypeOf(v)) {
			return true
		}
		if inner, ok := v.(*ast.CompositeLit); ok && rd.paramsGiveState(inner) {
			return true
		}
	}
	return false
}

// isTime reports whether t is a time: time.Time, sql.NullTime, or a pointer to one.
func isTime(t types.Type) bool {
	if t == nil {
		return false
	}
	n, ok := types.Unalias(defuse.Deref(t)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() + "." + n.Obj().Name() {
	case "time.Time", "database/sql.NullTime":
		return true
	}
	return false
}

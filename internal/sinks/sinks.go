// Package sinks judges one call of a modelled sink: which effect it has, how well it is
// protected against a repeat, and why, from the call's arguments and how they were built
// (the package's def-use index). Each model shape has its reader: SQL text, batches and
// builder chains here; HTTP requests in http.go, and the POSTs among them that read in
// reads.go; answers to a message's reply subject in replies.go; provider params in
// params.go; update expressions in updates.go; idempotency keys, with the one judgement of a key's stability,
// in keys.go; gates (claims checked with an early return) in gates.go.
//
// A call is judged in an explicit Scope, the function whose body holds it: its parameters
// decide whether a key comes from the job, and carry keys and HTTP methods to its callers.
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

// Judge reads sink calls of one package.
type Judge struct {
	Defs   *defuse.Index
	Models *model.Entries
	Fset   *token.FileSet
}

// Scope is the function whose body holds the calls being judged.
type Scope struct {
	Name string // as in messages: "HandleOrder", "func literal in HandleOrder"
	// Func is the declared function (nil for a literal): a key or HTTP method taken from
	// its string parameters is checked at its callers.
	Func *types.Func
	// Params are the parameters of the function and of the functions enclosing it: job
	// data reaches a sink through them.
	Params map[*types.Var]bool
}

func (j *Judge) info() *types.Info { return j.Defs.Info }

func (j *Judge) shortPos(pos token.Pos) string { return effect.ShortPos(j.Fset, pos) }

// Eval decides what one call of sink s (the function fn) does in scope sc: which effect,
// how protected, and why. It returns nil when the call has no effect worth tracking (a
// read, a GET).
func (j *Judge) Eval(call *ast.CallExpr, s *model.Sink, fn *types.Func, sc Scope) *effect.Effect {
	mk := func(state effect.State, detail string) *effect.Effect {
		return &effect.Effect{Kind: s.Kind, State: state, Detail: detail, Tx: j.txMode(s, call),
			Chain: []effect.Hop{{Func: effect.FuncName(fn, nil), Pos: j.shortPos(call.Pos())}}}
	}
	arg := defuse.ArgAt(call, s.Arg)
	if s.Receiver {
		arg = receiverOf(call)
	}
	switch s.Shape {
	case model.SQLExec, model.SQLQuery:
		if arg == nil {
			return nil
		}
		return j.worstSQL(mk, j.statementTexts(arg), s.Shape == model.SQLQuery, call.Args[s.Arg+1:])
	case model.SQLPrepared:
		return j.sqlEffect(mk, j.preparedText(call), false, call.Args)
	case model.SQLBatch:
		return j.batchEffect(mk, arg, sc)
	case model.SQLCopy:
		return mk(effect.Unprotected, "SQL write not safe to repeat: bulk COPY without conflict handling")
	case model.HTTPPost:
		if j.postReads(defuse.ArgAt(call, s.URLArg), arg) {
			return nil
		}
		return mk(effect.Unprotected, "HTTP POST without an Idempotency-Key header (this call cannot set one)")
	case model.HTTPDo:
		return j.httpEffect(mk, arg, sc)
	case model.HTTPForm:
		if j.tokenRequest(arg) || j.postReads(defuse.ArgAt(call, s.URLArg), nil) {
			return nil
		}
		return mk(effect.Unprotected, "HTTP POST without an Idempotency-Key header (this call cannot set one)")
	case model.Send:
		if arg != nil && j.replySubject(arg) {
			return nil // an answer to a waiting request (reply_subjects)
		}
		if at := j.producerTxn(call); at != "" {
			return mk(effect.Protected, s.What+" produced in a transaction that commits the consumed offset ("+at+"): exactly once for read_committed consumers")
		}
		return mk(effect.Unprotected, s.Problem())
	case model.ProviderParams:
		return consumerKey(s, j.providerEffect(mk, s, arg, sc))
	case model.Options:
		return j.optionsEffect(mk, s, call, sc)
	case model.Builder:
		return j.builderEffect(mk, s, call, sc)
	case model.Relative:
		if sqlstmt.VersionColumn(strings.TrimPrefix(fn.Name(), "Add")) {
			return nil // AddVersion(1): an optimistic-locking counter (sqlstmt.VersionColumn)
		}
		return mk(effect.Unprotected, s.What+" "+fn.Name()+" adds to the stored value: not safe to repeat")
	case model.UpdateExpression:
		return j.updateEffect(mk, s, arg, sc)
	case model.UpdateValues:
		return j.valuesEffect(mk, call, s.Arg)
	case model.KeyArg:
		return j.keyedEffect(mk, s, arg, arg != nil && !j.Defs.IsEmptyString(arg), sc)
	}
	return nil
}

// receiverOf returns the receiver expression of a method call, or nil.
func receiverOf(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// consumerKey makes a keyed effect of a sink whose key only names the message for its
// consumers (a RabbitMQ MessageId) Claimed: the key decision is answered, enforcement is left
// to every consumer, since the broker delivers the repeat all the same.
func consumerKey(s *model.Sink, e *effect.Effect) *effect.Effect {
	if !s.ConsumerKey || e == nil || e.State != effect.Protected {
		return e
	}
	e.State = effect.Claimed
	e.Detail = s.What + " with a message id: each consumer must deduplicate by it, unless the broker is configured to"
	return e
}

type mkEffect func(effect.State, string) *effect.Effect

// txMode says whether a sink call commits with a database transaction: it is given one
// (River's InsertTx), or its receiver is a modelled transaction or pool type.
func (j *Judge) txMode(s *model.Sink, call *ast.CallExpr) effect.TxMode {
	if s.InTx {
		return effect.TxIn
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return effect.TxUnknown
	}
	recv, ok := j.info().Selections[sel]
	if !ok {
		return effect.TxUnknown
	}
	named, ok := types.Unalias(defuse.Deref(recv.Recv())).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return effect.TxUnknown
	}
	return j.Models.Index.TxMode(named.Obj().Pkg().Path() + "." + named.Obj().Name())
}

// sqlEffect classifies statement text. query is set for Query*-style calls, which are
// writes only when the text says so; args are the statement's arguments. An INSERT into a
// table the models name append-only is no effect.
func (j *Judge) sqlEffect(mk mkEffect, text string, query bool, args []ast.Expr) *effect.Effect {
	res := sqlstmt.Classify(text)
	if res.Table != "" && j.Models.Index.AppendOnly(res.Table) {
		return nil
	}
	switch res.Class {
	case sqlstmt.Read:
		return nil
	case sqlstmt.Unknown:
		if query {
			return nil // an unknown query is far more often a read than a write
		}
		if strings.Trim(text, strval.Hole) == "" {
			return mk(effect.Unprotected, "SQL write not safe to repeat: statement text not known")
		}
		return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason)
	case sqlstmt.NonIdempotent:
		return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason+j.freshRow(res, args))
	default: // Guarded, Converging
		if src := j.freshConflictKey(res, args); src != "" {
			return mk(effect.Unprotected, "SQL write not safe to repeat: "+res.Reason+" on a key made anew on every run (from "+src+"): a repeat inserts another row")
		}
		return mk(effect.Protected, res.Reason)
	}
}

// freshConflictKey returns what makes a value bound to an upsert's conflict target anew on
// every run (uuid.New, the clock: an unstable function), or "": the conflict then never
// happens, and the upsert absorbs nothing.
func (j *Judge) freshConflictKey(res sqlstmt.Result, args []ast.Expr) string {
	for _, n := range res.ConflictParams {
		if n == 0 || int(n) > len(args) {
			continue
		}
		if src := j.unstableSource(args[n-1]); src != "" {
			return src
		}
	}
	return ""
}

// worstSQL classifies each text a statement argument may hold and returns the worst effect.
func (j *Judge) worstSQL(mk mkEffect, texts []string, query bool, args []ast.Expr) *effect.Effect {
	var worst *effect.Effect
	for _, t := range texts {
		e := j.sqlEffect(mk, t, query, args)
		if e != nil && (worst == nil || e.Worse(*worst)) {
			worst = e
		}
	}
	return worst
}

// statementTexts returns the texts a statement argument may hold: its text, or, for a field
// of the value variable of a range over a slice literal of struct literals (for _, m :=
// range []struct{ name, sql string }{{...}, ...} { db.Exec(m.sql) }), the field's text in
// each element, the slice literal given directly or through a local variable.
func (j *Judge) statementTexts(arg ast.Expr) []string {
	sel, ok := ast.Unparen(arg).(*ast.SelectorExpr)
	if !ok {
		return []string{j.Defs.Text(arg)}
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	v, _ := j.info().Uses[id].(*types.Var)
	if !ok || v == nil || j.Defs.RangedOver(v) == nil {
		return []string{j.Defs.Text(arg)}
	}
	over := ast.Unparen(j.Defs.RangedOver(v))
	if w := j.Defs.RootVar(over); w != nil && j.Defs.Def(w) != nil {
		over = ast.Unparen(j.Defs.Def(w))
	}
	lit, ok := over.(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return []string{j.Defs.Text(arg)}
	}
	texts := make([]string, 0, len(lit.Elts))
	for _, elt := range lit.Elts {
		text, ok := j.elementField(elt, sel.Sel.Name)
		if !ok {
			return []string{strval.Hole}
		}
		texts = append(texts, text)
	}
	return texts
}

// elementField returns the text of the field named name in a struct literal element of a
// slice literal (keyed, or positional by the struct's field order).
func (j *Judge) elementField(elt ast.Expr, name string) (string, bool) {
	if kv, ok := elt.(*ast.KeyValueExpr); ok { // an indexed element: [2]T{1: {...}}
		elt = kv.Value
	}
	lit, ok := ast.Unparen(elt).(*ast.CompositeLit)
	if !ok {
		return "", false
	}
	if v, ok := defuse.FieldValue(lit, name); ok {
		return j.Defs.Text(v), true
	}
	st, ok := j.info().TypeOf(lit).Underlying().(*types.Struct)
	if !ok || len(lit.Elts) != st.NumFields() {
		return "", false
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == name {
			if _, keyed := lit.Elts[i].(*ast.KeyValueExpr); !keyed {
				return j.Defs.Text(lit.Elts[i]), true
			}
		}
	}
	return "", false
}

// freshRow explains an INSERT without conflict handling whose values include one made from
// a random or clock source: every run adds a row, which is a problem unless the table is
// meant to take one per run, and then the models can say so.
func (j *Judge) freshRow(res sqlstmt.Result, args []ast.Expr) string {
	if res.Table == "" {
		return ""
	}
	for _, a := range args {
		if src := j.unstableSource(a); src != "" {
			return " into " + res.Table + ": a new row on every run (made from " + src +
				"); a table that takes one per run by design is named under append_only in the models"
		}
	}
	return ""
}

// preparedText finds the text given to Prepare for the statement a call executes on.
func (j *Judge) preparedText(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return strval.Hole
	}
	return j.stmtText(sel.X, 0)
}

// stmtText returns the text the prepared statement e was prepared from: the last argument of
// a Prepare call; through a local variable assigned once; through a struct field the package
// assigns once, or pairs once with the text ({&s.insertStmt, insertSQL}, a list prepared in
// a loop); through a call given the statement that returns its type (tx.Stmt(s.insertStmt),
// a helper TxStmt(tx, s.insertStmt)).
func (j *Judge) stmtText(e ast.Expr, depth int) string {
	e = ast.Unparen(e)
	if e == nil || depth > defuse.MaxDepth {
		return strval.Hole
	}
	info := j.info()
	if t := info.TypeOf(e); t != nil && defuse.IsString(t) {
		return j.Defs.Text(e) // the text paired with a field
	}
	switch x := e.(type) {
	case *ast.Ident:
		if v, _ := info.Uses[x].(*types.Var); v != nil && !v.IsField() {
			return j.stmtText(j.Defs.Def(v), depth+1)
		}
	case *ast.SelectorExpr:
		if f := j.Defs.Field(x); f != nil && len(j.Defs.FieldDefs(f)) == 1 {
			return j.stmtText(j.Defs.FieldDefs(f)[0], depth+1)
		}
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(info, x).(*types.Func)
		if ok && strings.HasPrefix(fn.Name(), "Prepare") && len(x.Args) > 0 {
			return j.Defs.Text(x.Args[len(x.Args)-1])
		}
		for _, a := range x.Args {
			if t := info.TypeOf(a); t != nil && types.Identical(t, info.TypeOf(x)) {
				return j.stmtText(a, depth+1)
			}
		}
	}
	return strval.Hole
}

// chainGuarded reports whether the receiver chain of a builder call (x.A().B().Create(v)),
// followed through local variables, calls a chain guard or builds a guard type's literal.
func (j *Judge) chainGuarded(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	info := j.info()
	return j.Defs.Find(sel.X, defuse.Fills, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(info, x).(*types.Func)
			return ok && j.Models.Of(fn).ChainGuard
		case *ast.CompositeLit:
			named, ok := defuse.Deref(info.TypeOf(x)).(*types.Named)
			return ok && named.Obj().Pkg() != nil && j.Models.Index.GuardType(named.Obj().Pkg().Path()+"."+named.Obj().Name())
		}
		return false
	})
}

// GeneratedGuard finds a generated chain guard (ent's OnConflict) in the receiver chain of a
// call into generated code, followed through local variables, or called on the builder
// variable the chain starts from (b.OnConflict(...); b.Exec(ctx): the guard sets the
// builder's conflict options). It returns the kind the guard protects and its name.
func (j *Judge) GeneratedGuard(call *ast.CallExpr) (effect.Kind, string) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	var kind effect.Kind
	var name string
	match := func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(j.info(), c).(*types.Func)
		if !ok || j.Models.Of(fn).GuardKind == "" {
			return false
		}
		kind, name = j.Models.Of(fn).GuardKind, fn.Name()
		return true
	}
	if j.Defs.Find(sel.X, defuse.Fills, match) {
		return kind, name
	}
	if v := j.Defs.RootVar(sel.X); v != nil {
		for _, c := range j.Defs.CallsOn(v) {
			if match(c) {
				return kind, name
			}
		}
	}
	return "", ""
}

// producerTxn returns where the producer a send is made on has the consumed offset added to
// its transaction (a txn_offsets call, sarama's AddMessageToTxn, on the same receiver
// expression), or "". A producer got from an accessor without arguments of that receiver
// (franz-go's sess.Client() of a GroupTransactSession) is the same producer. Like the
// request rules, it is flow-insensitive: the call may be anywhere the receiver's variable is
// used.
func (j *Judge) producerTxn(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	x := sel.X
	if acc, ok := ast.Unparen(x).(*ast.CallExpr); ok && len(acc.Args) == 0 {
		if s, ok := ast.Unparen(acc.Fun).(*ast.SelectorExpr); ok {
			if _, method := j.info().Selections[s]; method {
				x = s.X
			}
		}
	}
	v := j.Defs.RootVar(x)
	if v == nil {
		return ""
	}
	recv := types.ExprString(x)
	for _, c := range j.Defs.CallsOn(v) {
		fn, ok := typeutil.Callee(j.info(), c).(*types.Func)
		if !ok || !j.Models.Of(fn.Origin()).TxnOffset {
			continue
		}
		if cs, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && types.ExprString(cs.X) == recv {
			return fn.Name() + " at " + j.shortPos(c.Pos())
		}
	}
	return ""
}

// Package sinks judges one call of a modelled sink: which effect it has, how well it is
// protected against a repeat, and why, from the call's arguments and how they were built
// (the package's def-use index). Judge is the seam the later stages call; Eval dispatches
// on the sink's model shape to its reader, each in a stage of its own with explicit inputs
// and no shared state:
//
//   - keys: the one judgement of whether a key identifies the job, keyed sinks, options
//     that carry a key, and the Scope every reader is given;
//   - statements: SQL text, prepared statements, batches, ORM column updates;
//   - requests: HTTP requests, their Idempotency-Key header, the POSTs that read;
//   - params: provider params (key and condition fields), DynamoDB update expressions;
//   - gates: claims checked with an early return (SETNX, SQL claims, rows locked on a
//     transaction, duplicate keys taken as done), and the claims helpers return.
//
// What no stage owns stays here: builder chains and their guards (builders.go), sends
// (replies and transactional producers, sends.go), status events (statusevents.go), jobs
// that drain a backlog by chaining themselves (drains.go), and the dispatch itself
// (sinks.go).
//
// A call is judged in an explicit Scope, the function whose body holds it: its parameters
// decide whether a key comes from the job, and carry keys and HTTP methods to its callers.
package sinks

import (
	"go/ast"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/frameworks"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// Eval decides what one call of sink s (the function fn) does in scope sc: which effect,
// how protected, and why. It returns nil when the call has no effect worth tracking (a
// read, a GET).
func (j *Judge) Eval(call *ast.CallExpr, s *model.Sink, fn *types.Func, sc Scope) *effect.Effect {
	e := j.eval(call, s, fn, sc)
	if e != nil && e.Kind == effect.HTTPWrite && e.State == effect.Unprotected && sc.Func != nil {
		if decl := j.Defs.Decl(sc.Func); decl != nil {
			if at := j.requests().ConflictDone(call, decl.Body, j.shortPos); at != "" {
				// The API keys the create by what the request names and refuses a repeat.
				e.State = effect.Protected
				e.Detail = strings.TrimSuffix(strings.SplitN(e.Detail, " without", 2)[0], " ") + " whose conflict answer (409, or \"already exists\") is taken as done at " + at + ": the API refuses a repeat by its own key"
			}
		}
	}
	return e
}

// eval is Eval's dispatch on the sink's model shape.
func (j *Judge) eval(call *ast.CallExpr, s *model.Sink, fn *types.Func, sc Scope) *effect.Effect {
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
		e := j.statementsIn(sc).Statement(mk, arg, s.Shape == model.SQLQuery, call.Args[s.Arg+1:])
		if e != nil && e.State == effect.Unprotected && e.Tx == effect.TxIn {
			if d := j.statements().Replaces(call, s.Arg); d != "" {
				e.State, e.Detail = effect.Protected, d // delete-then-insert on the transaction
			}
		}
		return e
	case model.SQLPrepared:
		// Exec, ExecContext, MustExec run the statement; every other method of a prepared
		// statement (Query*, Select*, Get*) asks for its rows.
		return j.statementsIn(sc).Prepared(mk, call, !strings.Contains(fn.Name(), "Exec"))
	case model.SQLBatch:
		return j.statements().Batch(mk, arg, sc)
	case model.SQLCopy:
		if d := j.statements().ReplacesAll(call, s.Arg, j.shortPos); d != "" {
			return mk(effect.Protected, d) // TRUNCATE, then COPY: replace-all
		}
		return mk(effect.Unprotected, "SQL write not safe to repeat: bulk COPY without conflict handling")
	case model.HTTPPost:
		if j.requests().Reads(defuse.ArgAt(call, s.URLArg), arg) {
			return nil
		}
		d, safe := j.requests().ToRoute("HTTP POST", "POST", defuse.ArgAt(call, s.URLArg))
		if safe {
			return mk(effect.Protected, d)
		}
		e := mk(effect.Unprotected, "HTTP POST without an Idempotency-Key header (this call cannot set one)"+d)
		p, by := j.requests().BodyParam(arg, sc)
		if p == 0 {
			p, by = j.requests().URLPathParam(defuse.ArgAt(call, s.URLArg), sc), effect.URLPath
		}
		if p == 0 {
			p, by = j.requests().BodyTextParam(arg, sc), effect.BodyText
		}
		e.ReadsParam, e.ReadsBy = uint8(p), by
		e.PayloadParam = uint8(j.requests().PayloadParam(arg, sc))
		return e
	case model.HTTPDo:
		return j.requests().Request(mk, arg, sc)
	case model.HTTPForm:
		if j.requests().TokenRequest(arg) || j.requests().Reads(defuse.ArgAt(call, s.URLArg), nil) {
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
		e := mk(effect.Unprotected, s.Problem())
		j.toConsumers(e, s, fn, call, sc)
		j.statusEvent(e, call, sc)
		return e
	case model.ProviderParams:
		e := consumerKey(s, j.params().Provider(mk, s, arg, sc))
		if e != nil && e.State == effect.Unprotected && j.riverInsert(fn) {
			if j.uniqueInsert(call, s.Arg-1) {
				// River falls back to the args type's UniqueOpts when the insert sets none.
				e.State, e.Detail = effect.Protected, s.What+" unique by its args (UniqueOpts in its args type's InsertOpts)"
			} else if d := j.drains(defuse.ArgAt(call, s.Arg-1), sc); d != "" {
				e.State, e.Detail = effect.Protected, d // a backlog drained by chaining the job
			} else if a := defuse.ArgAt(call, s.Arg-1); a != nil && j.whileActive(j.info().TypeOf(a)) {
				e.Detail = s.What + whileActiveDetail
			} else if p := interfaceParam(j.info(), defuse.ArgAt(call, s.Arg-1), sc); p != 0 {
				// AddJob(ctx, args river.JobArgs) { c.InsertTx(ctx, tx, args, nil) }: each
				// caller's args type decides (PassArgs).
				e.ArgsParam = uint8(p)
			}
		}
		j.toConsumers(e, s, fn, call, sc)
		return e
	case model.Options:
		e := j.keys().Options(mk, s, call, sc)
		j.toConsumers(e, s, fn, call, sc)
		j.statusEvent(e, call, sc)
		return e
	case model.Builder:
		return j.builderEffect(mk, s, call, sc)
	case model.Relative:
		if sqlstmt.Bookkeeping(strings.TrimPrefix(fn.Name(), "Add")) {
			return nil // AddVersion(1), AddAttempts(1): a counter a repeat may bump (sqlstmt.Bookkeeping)
		}
		return mk(effect.Unprotected, s.What+" "+fn.Name()+" adds to the stored value: not safe to repeat")
	case model.UpdateExpression:
		return j.params().Update(mk, s, arg, sc)
	case model.UpdateValues:
		return j.statements().Values(mk, call, s.Arg)
	case model.NameArg:
		if s.Field != "" && arg != nil {
			// PutObject(ctx, &s3.PutObjectInput{Bucket: b, Key: aws.String(name)})
			arg = j.Defs.StructField(arg, s.Field[strings.LastIndex(s.Field, ".")+1:])
		}
		return j.keys().Named(mk, s, arg)
	case model.KeyArg:
		return j.keys().Keyed(mk, s, arg, arg != nil && !j.Defs.IsEmptyString(arg), sc)
	}
	return nil
}

// riverInsert reports whether fn is River's Insert or InsertTx.
func (j *Judge) riverInsert(fn *types.Func) bool {
	return j.UniqueArgs != nil && fn.Pkg() != nil && model.Normalize(fn.Pkg().Path()) == frameworks.RiverPath &&
		(fn.Name() == "Insert" || fn.Name() == "InsertTx")
}

// uniqueInsert reports whether a River insert call inserts args (the argument at i) of a
// type whose InsertOpts declares unique insertion by args.
func (j *Judge) uniqueInsert(call *ast.CallExpr, i int) bool {
	a := defuse.ArgAt(call, i)
	return a != nil && j.UniqueArgs(j.info().TypeOf(a))
}

// whileActiveDetail is what a River insert's detail says of an args type whose uniqueness lasts
// only while an earlier job is active (Judge.UniqueWhileActive).
const whileActiveDetail = " unique by its args only while an earlier job is active (its UniqueOpts' ByState leaves out completed): a repeat after that job completed inserts another"

// whileActive reports whether t is a River args type whose UniqueOpts hold only while an
// earlier job is active.
func (j *Judge) whileActive(t types.Type) bool {
	return j.UniqueWhileActive != nil && t != nil && j.UniqueWhileActive(t)
}

// interfaceParam returns 1 + the index of the parameter of the scope's function that e
// names, when its type is an interface (river.JobArgs), else 0.
func interfaceParam(info *types.Info, e ast.Expr, sc Scope) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || sc.Func == nil || info == nil {
		return 0
	}
	v, _ := info.Uses[id].(*types.Var)
	params := sc.Func.Signature().Params()
	for i := 0; i < params.Len() && i < 255; i++ {
		if params.At(i) == v && v != nil && types.IsInterface(v.Type()) {
			return i + 1
		}
	}
	return 0
}

// PassArgs checks, at a call of a function that inserts the River args its interface
// parameter holds (e.ArgsParam), the args the caller (scope sc) passes there: of a type
// whose InsertOpts declares unique insertion by args, the insert is unique; the caller's
// own interface parameter passes the question on; anything else leaves it unprotected.
func (j *Judge) PassArgs(args []ast.Expr, e effect.Effect, sc Scope) effect.Effect {
	i := int(e.ArgsParam) - 1
	e.ArgsParam = 0
	if args == nil || i < 0 || i >= len(args) || j.UniqueArgs == nil {
		return e
	}
	what := strings.TrimSuffix(e.Detail, " without an idempotency key")
	if j.UniqueArgs(j.info().TypeOf(args[i])) {
		e.State = effect.Protected
		e.Detail = what + " unique by its args (UniqueOpts in its args type's InsertOpts)"
		return e
	}
	if d := j.drains(args[i], sc); d != "" {
		e.State, e.Detail = effect.Protected, d
		return e
	}
	if p := interfaceParam(j.info(), args[i], sc); p != 0 {
		e.ArgsParam = uint8(p)
		return e
	}
	if j.whileActive(j.info().TypeOf(args[i])) && what != e.Detail {
		e.Detail = what + whileActiveDetail
	}
	if topic := j.valueType(args[i]); topic != "" && e.State < effect.Claimed && what != e.Detail {
		// The caller's args type routes the job to its worker, as at a direct Insert. (what
		// != e.Detail: the effect still says only that it has no key, nothing more.)
		j.linkConsumers(&e, frameworks.RiverPath, what, topic)
	}
	return e
}

// receiverOf returns the receiver expression of a method call, or nil.
func receiverOf(call *ast.CallExpr) ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		return sel.X
	}
	return nil
}

// consumerKey makes a keyed effect of a sink whose key only names the message for its
// consumers (a RabbitMQ MessageId) Keyed: the key decision is answered, enforcement is left
// to every consumer, since the broker delivers the repeat all the same.
func consumerKey(s *model.Sink, e *effect.Effect) *effect.Effect {
	if !s.ConsumerKey || e == nil || e.State != effect.Protected {
		return e
	}
	e.State = effect.Keyed
	e.Detail = s.What + " with a message id: each consumer must deduplicate by it, unless the broker is configured to"
	return e
}

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

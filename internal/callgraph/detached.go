// Goroutines a handler leaves behind. A handler whose last act is to start its work in a
// goroutine (`go func() { ... }()`, then return nil) has its message acknowledged when it
// returns, while the goroutine is still running: a redelivery comes only if the process
// dies before that return, and the goroutine dies with it. The goroutine's effects are
// made at most once, as after a claim: a crash loses them rather than repeating them.
//
// The last act may be a helper's, called as the caller's own last act, through any
// number of calls: notifyReady(book) whose body is `go sendPush(...)`. A caller that does
// more after such a call (a query, an enqueue, an error it may return) keeps the delivery
// open while the goroutine runs, and a crash or a retry then runs it again: at such a call
// the effect is what it was before the goroutine (effect.Effect.Detached).

package callgraph

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
)

// detachedNote is what a detached effect's detail says, and what unDetach takes away.
const detachedNote = "; it runs in a goroutine started as the handler's last act, which returns without waiting for it: the delivery is acknowledged then, so a redelivery does not run it again, and a crash before it is done loses it (at most once)"

// markTails marks the sites of n that are its last act (Site.tail: followed by nothing but
// a return of no call, in n's body or in a branch that ends so), and among them the go
// statements that start a goroutine n leaves behind (Site.detached): in a function that
// nowhere waits (no call of a Wait method, of a sync.WaitGroup or an errgroup.Group; no
// receive from a channel, no select), returning nil for an error after it (tailStmts), and
// starting a goroutine that does not talk over channels (talks). A go statement's
// arguments are evaluated before it starts, and are not marked.
func (b *builder) markTails(n *Node) {
	if n.Body == nil || len(n.Sites) == 0 {
		return
	}
	tails, gos := map[token.Pos]bool{}, map[token.Pos]bool{}
	b.tailStmts(n.Body, n.Body.List, true, true, tails, gos)
	if len(tails) == 0 {
		return
	}
	detach := len(gos) > 0 && !waits(b.in.Info, n.Body)
	for i := range n.Sites {
		s := &n.Sites[i]
		s.tail = tails[s.Pos]
		s.detached = detach && gos[s.Pos]
	}
}

// tailStmts records in tails the calls of list that are the function's last act when list
// ends the function (blockTail) or ends in a return: a call statement, an assignment of
// one call's results (both followed by nothing but a return that gives nil for an error:
// an error returned after the call has the delivery retried, and what the call left behind
// started again), a go statement followed by nothing but a return of no call, and the
// calls a return statement returns. A go statement goes in gos too when it does not talk
// and what is returned after it gives nil for an error (nilAfter says so of the return
// that follows list, when list is a tail block): a function that may return an error after
// starting a goroutine has its delivery retried, and the goroutine started again. An if
// statement's branches are looked into, each a block of its own; loops, switches and
// selects are not (what they run may run again, or be followed by another case).
func (b *builder) tailStmts(body *ast.BlockStmt, list []ast.Stmt, blockTail, nilAfter bool, tails, gos map[token.Pos]bool) {
	for i, st := range list {
		rest := b.withoutNeutral(list[i+1:])
		last := onlyReturns(rest) && (len(rest) == 1 || blockTail)
		nilNext := nilAfter
		if r, ok := lastReturn(rest); ok {
			nilNext = b.nilErrors(r)
		}
		switch st := st.(type) {
		case *ast.ReturnStmt:
			for _, r := range st.Results {
				if c, ok := ast.Unparen(r).(*ast.CallExpr); ok {
					tails[c.Pos()] = true
				}
			}
		case *ast.ExprStmt:
			// A call followed by a return of an error is no last act: the error has the
			// delivery retried, and a goroutine the call leaves behind started again.
			if c, ok := ast.Unparen(st.X).(*ast.CallExpr); ok && last && nilNext {
				tails[c.Pos()] = true
			}
		case *ast.AssignStmt:
			if len(st.Rhs) == 1 && last && nilNext {
				if c, ok := ast.Unparen(st.Rhs[0]).(*ast.CallExpr); ok {
					tails[c.Pos()] = true
				}
			}
		case *ast.GoStmt:
			if last {
				tails[st.Call.Pos()] = true
				if nilNext && !b.talks(st.Call, body) {
					gos[st.Call.Pos()] = true
				}
			}
		case *ast.IfStmt:
			b.tailStmts(body, st.Body.List, last, nilNext, tails, gos)
			switch e := st.Else.(type) {
			case *ast.BlockStmt:
				b.tailStmts(body, e.List, last, nilNext, tails, gos)
			case *ast.IfStmt:
				b.tailStmts(body, []ast.Stmt{e}, last, nilNext, tails, gos)
			}
		case *ast.BlockStmt:
			b.tailStmts(body, st.List, last, nilNext, tails, gos)
		}
	}
}

// withoutNeutral returns stmts without the calls that only log, count or trace (a
// telemetry package's, an application's logger method): a handler that logs that its work
// started, after starting it, has done its last act all the same.
func (b *builder) withoutNeutral(stmts []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for _, st := range stmts {
		if es, ok := st.(*ast.ExprStmt); ok {
			if c, ok := ast.Unparen(es.X).(*ast.CallExpr); ok {
				if fn, ok := typeutil.Callee(b.in.Info, c).(*types.Func); ok && b.neutral(fn.Origin()) {
					continue
				}
			}
		}
		out = append(out, st)
	}
	return out
}

// neutral reports whether fn only logs, counts, traces or reports errors: a model's neutral
// function (a telemetry package's, or one a project names) or an application's logger
// method. What it reaches is not the handler's effect, and it does not end a last act.
func (b *builder) neutral(fn *types.Func) bool {
	return b.in.Judge.Models.Of(fn).Neutral || b.in.Judge.Models.Index.LoggerMethod(fn)
}

// lastReturn returns the return statement that is all of rest, if it is.
func lastReturn(rest []ast.Stmt) (*ast.ReturnStmt, bool) {
	if len(rest) != 1 {
		return nil, false
	}
	r, ok := rest[0].(*ast.ReturnStmt)
	return r, ok
}

// nilErrors reports whether a return statement gives nil in each result of type error.
func (b *builder) nilErrors(r *ast.ReturnStmt) bool {
	for _, e := range r.Results {
		if t := b.in.Info.TypeOf(e); t != nil && types.Identical(t, errorType) {
			if id, isIdent := ast.Unparen(e).(*ast.Ident); !isIdent || id.Name != "nil" {
				return false
			}
		}
	}
	return true
}

var errorType = types.Universe.Lookup("error").Type()

// detach makes e, which a goroutine left behind brings, made at most once (claimed), with
// what it was before kept for unDetach.
func detach(e effect.Effect) effect.Effect {
	if e.State >= effect.Claimed {
		return e
	}
	e.Detached = e.State + 1
	e.State = effect.Claimed
	e.Detail += detachedNote
	return e
}

// unDetach gives e back what it was before a goroutine left it behind: at a call that is
// not its caller's last act, the delivery stays open while the goroutine runs.
func unDetach(e effect.Effect) effect.Effect {
	if e.Detached == 0 {
		return e
	}
	e.State, e.Detached = e.Detached-1, 0
	e.Detail = strings.TrimSuffix(e.Detail, detachedNote)
	return e
}

// talks reports whether the goroutine call starts talks over channels shared with others:
// a literal whose body sends on, receives from or ranges over a channel that is not the
// starting function's own (a worker reading a queue, handing results on), or waits for a
// group, or a call given a channel (go worker(jobs)). Such a goroutine is a consumer of its
// own, or answers someone who waits: not work left behind. A goroutine that watches only
// what its function made (the channels it made, the done channel of an execution it
// started, a context's Done) is that function's work, left behind.
func (b *builder) talks(call *ast.CallExpr, body *ast.BlockStmt) bool {
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		shared := false
		ast.Inspect(lit.Body, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false // runs elsewhere: a deferred release of a semaphore slot
			case *ast.SendStmt:
				shared = shared || !b.ownChan(x.Chan, body)
			case *ast.UnaryExpr:
				shared = shared || x.Op == token.ARROW && !b.ownChan(x.X, body)
			case *ast.RangeStmt:
				shared = shared || isChan(b.in.Info.TypeOf(x.X)) && !b.ownChan(x.X, body)
			case *ast.CallExpr:
				sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
				shared = shared || ok && sel.Sel.Name == "Wait"
			}
			return !shared
		})
		if shared {
			return true
		}
	}
	for _, arg := range call.Args {
		if isChan(b.in.Info.TypeOf(arg)) {
			return true
		}
	}
	return false
}

// ownChan reports whether the channel e is one the function whose body is body made or
// holds of its own: a local variable of the body (made there, or got from a value made
// there: execution.GetContextDoneChannel()), or a context's Done(). A parameter, a field
// of the receiver, or a package variable is shared.
func (b *builder) ownChan(e ast.Expr, body *ast.BlockStmt) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.CallExpr:
			sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
			if !ok {
				return false
			}
			if sel.Sel.Name == "Done" && defuse.IsContext(b.in.Info.TypeOf(sel.X)) {
				return true
			}
			e = sel.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.Ident:
			v, ok := b.in.Info.Uses[x].(*types.Var)
			return ok && !v.IsField() && body.Pos() < v.Pos() && v.Pos() < body.End()
		default:
			return false
		}
	}
}

// isChan reports whether t is a channel type.
func isChan(t types.Type) bool {
	if t == nil {
		return false
	}
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// onlyReturns reports whether stmts are at most one return statement whose results make no
// call: after a statement, the function returns at once.
func onlyReturns(stmts []ast.Stmt) bool {
	switch len(stmts) {
	case 0:
		return true
	case 1:
		r, ok := stmts[0].(*ast.ReturnStmt)
		if !ok {
			return false
		}
		for _, e := range r.Results {
			calls := false
			ast.Inspect(e, func(x ast.Node) bool {
				_, isCall := x.(*ast.CallExpr)
				calls = calls || isCall
				return !calls
			})
			if calls {
				return false
			}
		}
		return true
	}
	return false
}

// waits reports whether body (its nested literals aside, which run elsewhere) waits for
// something a goroutine does: a Wait method call, a channel receive (a range over a
// channel too), a select.
func waits(info *types.Info, body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectStmt:
			found = true
		case *ast.UnaryExpr:
			found = found || x.Op == token.ARROW
		case *ast.RangeStmt:
			found = found || isChan(info.TypeOf(x.X))
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
				found = true
			}
		}
		return !found
	})
	return found
}

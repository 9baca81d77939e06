// Calls made only when the run has failed (in the body of `if err != nil`, or the else of
// `if err == nil`). Two kinds of effect there are the failure's own record, not the
// business's, and a repeat that fails again is right to make them again:
//
//   - a Redis INCR counts the failure: a retry counter keyed by the message, a
//     lock-contention counter that promotes a hot key. A run that does not fail does not
//     reach it. Only INCR, which adds one: an INCRBY on a failure path may hand back an
//     amount (a compensation), which a repeat would hand back twice;
//   - a call given the error it tested, whose name says it reports an error
//     (notification.NotifyError(err), reportFailure(ctx, err)), reports the failure as an
//     error tracker does: what it posts (a Slack alert, an operator e-mail) is one per
//     failed run by design, as a log line is;
//   - a call given the delivery the consumer received (a RabbitMQ amqp.Delivery, or its
//     Body) republishes it for a retry (c.Retry(ctx, svc, d) with an x-retry-count
//     header): a crash before the original's ack leaves two copies, each of which the
//     handler meets as it meets any redelivery.
//
// A failure path is the body of `if err != nil`, the else of `if err == nil`, and what
// follows `if err == nil { ...; return }` in its block.

package callgraph

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/topics"
)

// failureCounter is the start of the detail of the counter a failure path may repeat: the
// built-in Redis models' INCR (go-redis, rueidis, valkey-go).
const failureCounter = "Redis INCR sent"

// markFailures marks the sites of n made only on a failure path (Site.failure): the calls
// in the body of an if whose condition is err != nil, or in the else of err == nil, for a
// value err of a type that implements error. It records the condition's position, for
// the message, and whether the call reports that error (Site.reportsFailure). sites are
// the positions of n's sites (Node.sitePositions): other calls bring nothing to mark.
func (b *builder) markFailures(n *Node, sites map[token.Pos]bool) {
	if n.Body == nil || len(n.Sites) == 0 {
		return
	}
	type failedCall struct {
		cond             token.Pos
		reports, retries bool
	}
	failed := map[token.Pos]failedCall{}
	// afterSuccess: what follows `if err == nil { ...; return }`, read only for a delivery's
	// retry: after a lookup's early return on success (a cache hit), the rest is not a
	// failure that an INCR counts.
	afterSuccess := map[token.Pos]token.Pos{}
	mark := func(blk ast.Node, cond token.Pos, err types.Object) {
		ast.Inspect(blk, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false // a node of its own
			case *ast.CallExpr:
				// Ifs are visited outermost first: an inner failure test, whose error the
				// call may be given, overwrites the outer one.
				if sites[x.Pos()] {
					failed[x.Pos()] = failedCall{cond, err != nil && reportsError(b.in.Info, x, err), b.givenDelivery(x)}
				}
			}
			return true
		})
	}
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			switch op, err := b.errorTest(x.Cond); op {
			case token.NEQ:
				mark(x.Body, x.Cond.Pos(), err)
			case token.EQL:
				if x.Else != nil {
					mark(x.Else, x.Cond.Pos(), err)
				}
			}
		case *ast.BlockStmt:
			// if err == nil { ack; return }: what follows runs only when the run failed.
			for i, st := range x.List {
				ifs, ok := st.(*ast.IfStmt)
				if !ok || ifs.Else != nil || len(ifs.Body.List) == 0 {
					continue
				}
				if _, ret := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ret {
					continue
				}
				if op, _ := b.errorTest(ifs.Cond); op == token.EQL {
					for _, rest := range x.List[i+1:] {
						ast.Inspect(rest, func(y ast.Node) bool {
							if c, ok := y.(*ast.CallExpr); ok && sites[c.Pos()] && b.givenDelivery(c) {
								afterSuccess[c.Pos()] = ifs.Cond.Pos()
							}
							_, lit := y.(*ast.FuncLit)
							return !lit
						})
					}
				}
			}
		}
		return true
	})
	for i := range n.Sites {
		if c, ok := failed[n.Sites[i].Pos]; ok {
			n.Sites[i].failure = effect.ShortPos(b.in.Fset, c.cond)
			n.Sites[i].reportsFailure = c.reports
			n.Sites[i].retriesDelivery = c.retries
		} else if cond, ok := afterSuccess[n.Sites[i].Pos]; ok {
			n.Sites[i].retryAfter = effect.ShortPos(b.in.Fset, cond)
		}
	}
}

// givenDelivery reports whether call is given a delivery a consumer received: a value of a
// modelled delivery type (the element type of a receive channel's model, a RabbitMQ
// amqp.Delivery), or a field of one (d.Body), also inside a message built for the call
// (amqp.Publishing{Body: d.Body}).
func (b *builder) givenDelivery(call *ast.CallExpr) bool {
	given := false
	for _, a := range call.Args {
		ast.Inspect(a, func(x ast.Node) bool {
			switch x.(type) {
			case *ast.FuncLit, *ast.CallExpr:
				return false // what a call makes of it is not the delivery
			case *ast.Ident, *ast.SelectorExpr:
				if t := b.in.Info.TypeOf(x.(ast.Expr)); t != nil && b.in.Judge.Models.Index.Delivery(topics.TypeName(t)) != nil {
					given = true
				}
			}
			return !given
		})
	}
	return given
}

// reportVerbs and errorNouns are what the name of a function that reports an error holds,
// lower-cased: one of each (NotifyError, reportErr, alertFailure, CaptureException,
// RecordScrapingError: a row that records the failed run, one per failed run by design).
var (
	reportVerbs = []string{"notify", "report", "alert", "capture", "record"}
	errorNouns  = []string{"err", "fail", "exception"}
)

// reportsError reports whether call is given err (as an argument or inside one,
// fmt.Errorf("...: %w", err)) and its function's name says it reports an error.
func reportsError(info *types.Info, call *ast.CallExpr, err types.Object) bool {
	var name string
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		name = f.Sel.Name
	}
	name = strings.ToLower(name)
	if !containsAny(name, reportVerbs) || !containsAny(name, errorNouns) {
		return false
	}
	given := false
	for _, a := range call.Args {
		ast.Inspect(a, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok && info.Uses[id] == err {
				given = true
			}
			return !given
		})
	}
	return given
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// errorTest returns token.NEQ for a condition err != nil and token.EQL for err == nil (nil
// on either side), where err's type implements error, with err's variable when it is one
// (nil for another expression); token.ILLEGAL otherwise.
func (b *builder) errorTest(cond ast.Expr) (token.Token, types.Object) {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || (be.Op != token.NEQ && be.Op != token.EQL) {
		return token.ILLEGAL, nil
	}
	x := be.X
	if isNil(b.in.Info, x) {
		x = be.Y
	} else if !isNil(b.in.Info, be.Y) {
		return token.ILLEGAL, nil
	}
	t := b.in.Info.TypeOf(x)
	if t == nil || isNil(b.in.Info, x) || !types.Implements(t, errorType.Underlying().(*types.Interface)) {
		return token.ILLEGAL, nil
	}
	var err types.Object
	if id, ok := ast.Unparen(x).(*ast.Ident); ok {
		err = b.in.Info.Uses[id]
	}
	return be.Op, err
}

func isNil(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[ast.Unparen(e)]
	return ok && tv.IsNil()
}

// countFailure applies a failure path (the condition at cond, "file.go:12") to e: an
// unprotected Redis INCR counts the failure, and a repeat that fails again is counted
// again, as it should be. Anything else is returned as it is.
func countFailure(e effect.Effect, cond string) effect.Effect {
	if e.Kind != effect.StoreWrite || e.State != effect.Unprotected || !strings.HasPrefix(e.Detail, failureCounter) {
		return e
	}
	e.State = effect.Protected
	e.Detail = "Redis INCR made only when the run has failed (" + cond + "): it counts failures, and a repeat that fails again is one more"
	return e
}

// retryDelivery applies a call that republishes the delivery its node failed to handle
// (callee, on the failure tested at cond) to e: a publish it makes unprotected is that
// delivery's retry, which the handler meets as any redelivery.
func retryDelivery(e effect.Effect, callee, cond string) effect.Effect {
	if e.Kind != effect.Publish || e.State >= effect.Claimed {
		return e
	}
	e.State = effect.Protected
	e.Detail = "the delivery republished for a retry (" + callee + ", on the failure tested at " + cond + "): a crash before the original's ack leaves two copies, which the handler meets as any redelivery"
	return e
}

// reportFailure applies a call that reports the run's error (callee, the error tested at
// cond) to e: what it does unprotected is the failure's report, one per failed run.
func reportFailure(e effect.Effect, callee, cond string) effect.Effect {
	if e.State != effect.Unprotected {
		return e
	}
	e.State = effect.Protected
	e.Detail = "error report (" + callee + ", given the error tested at " + cond + "): one per failed run, as a log line is"
	return e
}

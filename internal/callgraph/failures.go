// Counters of failures. A Redis INCR made only when the run has already failed (in the
// body of `if err != nil`, or the else of `if err == nil`) counts that failure: a retry
// counter keyed by the message, a lock-contention counter that promotes a hot key. A
// repeat of the delivery that fails again is another failure, and counting it again is
// what the counter is for; a run that does not fail does not reach it. Only INCR, which
// adds one: an INCRBY on a failure path may hand back an amount (a compensation), which a
// repeat would hand back twice.

package callgraph

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
)

// failureCounter is the start of the detail of the counter a failure path may repeat: the
// built-in Redis models' INCR (go-redis, rueidis, valkey-go).
const failureCounter = "Redis INCR sent"

// markFailures marks the sites of n made only on a failure path (Site.failure): the calls
// in the body of an if whose condition is err != nil, or in the else of err == nil, for a
// value err of a type that implements error. It records the condition's position, for
// the message.
func (b *builder) markFailures(n *Node) {
	if n.Body == nil || len(n.Sites) == 0 {
		return
	}
	failed := map[token.Pos]token.Pos{}
	mark := func(blk ast.Stmt, cond token.Pos) {
		ast.Inspect(blk, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncLit:
				return false // a node of its own
			case *ast.CallExpr:
				if _, ok := failed[x.Pos()]; !ok {
					failed[x.Pos()] = cond
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
			switch b.errorTest(x.Cond) {
			case token.NEQ:
				mark(x.Body, x.Cond.Pos())
			case token.EQL:
				if x.Else != nil {
					mark(x.Else, x.Cond.Pos())
				}
			}
		}
		return true
	})
	for i := range n.Sites {
		if c, ok := failed[n.Sites[i].Pos]; ok {
			n.Sites[i].failure = effect.ShortPos(b.in.Fset, c)
		}
	}
}

// errorTest returns token.NEQ for a condition err != nil and token.EQL for err == nil (nil
// on either side), where err's type implements error; token.ILLEGAL otherwise.
func (b *builder) errorTest(cond ast.Expr) token.Token {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || (be.Op != token.NEQ && be.Op != token.EQL) {
		return token.ILLEGAL
	}
	x := be.X
	if isNil(b.in.Info, x) {
		x = be.Y
	} else if !isNil(b.in.Info, be.Y) {
		return token.ILLEGAL
	}
	t := b.in.Info.TypeOf(x)
	if t == nil || isNil(b.in.Info, x) || !types.Implements(t, errorType.Underlying().(*types.Interface)) {
		return token.ILLEGAL
	}
	return be.Op
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

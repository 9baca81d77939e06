// Errors a caller drops. An INSERT that a unique key turns away on a repeat fails then
// with a duplicate-key error; it is a finding because that error, handed up to the
// handler, fails the job on every redelivery until it is dead. A caller that drops the
// error (the call is a statement of its own, or its results all go to blank identifiers,
// or an if of its init only logs it) ends it there: the repeat stops at the key and the handler goes on, as when the code
// takes the duplicate-key error as done (gates' duplicate check).
//
// Not on a transaction: PostgreSQL aborts a transaction at its first failed statement, so
// a dropped error there fails the statements after it and the commit instead.

package callgraph

import (
	"go/ast"
	"go/token"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
)

// markDropped marks the sites of n whose call's results n drops (Site.dropped): an
// expression statement, a defer, or an assignment of the call's results to blank
// identifiers only. Positions are calls' starts, as for the sites; a call inside another
// call's receiver chain starts there too, but a chain's inner calls hand their results
// on, and the sinks a chain makes are at its last call.
func (b *builder) markDropped(n *Node) {
	if n.Body == nil || len(n.Sites) == 0 {
		return
	}
	dropped := map[token.Pos]bool{}
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false // a node of its own, marked on its own
		case *ast.ExprStmt:
			if c, ok := ast.Unparen(x.X).(*ast.CallExpr); ok {
				dropped[c.Pos()] = true
			}
		case *ast.DeferStmt:
			dropped[x.Call.Pos()] = true
		case *ast.AssignStmt:
			if c, ok := oneCall(x.Rhs); ok && allBlank(x.Lhs) {
				dropped[c.Pos()] = true
			}
		case *ast.IfStmt:
			if c := b.onlyLogged(x); c != nil {
				dropped[c.Pos()] = true
			}
		}
		return true
	})
	for i := range n.Sites {
		n.Sites[i].dropped = dropped[n.Sites[i].Pos]
	}
}

// onlyLogged returns the call of an if's init whose error the if only reports: `if err :=
// f(); err != nil { log(err) }`, its other results blank, with no else, and a body that
// neither leaves (return, break, continue, goto, panic) nor hands the error on (assigns
// it, sends it). The error goes no further than the log, as a dropped one; nil otherwise.
func (b *builder) onlyLogged(ifs *ast.IfStmt) *ast.CallExpr {
	as, ok := ifs.Init.(*ast.AssignStmt)
	if !ok || ifs.Else != nil || len(as.Lhs) == 0 {
		return nil
	}
	c, ok := oneCall(as.Rhs)
	if !ok || !allBlank(as.Lhs[:len(as.Lhs)-1]) {
		return nil
	}
	id, ok := ast.Unparen(as.Lhs[len(as.Lhs)-1]).(*ast.Ident)
	if !ok {
		return nil
	}
	errVar := b.in.Info.ObjectOf(id)
	if op, tested := b.errorTest(ifs.Cond); op != token.NEQ || errVar == nil || tested != errVar {
		return nil
	}
	handsOn := false
	ast.Inspect(ifs.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt, *ast.BranchStmt, *ast.SendStmt:
			handsOn = true
		case *ast.AssignStmt:
			// failed = err, errs = append(errs, err), last = fmt.Errorf("...: %w", err)
			for _, r := range x.Rhs {
				ast.Inspect(r, func(y ast.Node) bool {
					if rid, ok := y.(*ast.Ident); ok && b.in.Info.ObjectOf(rid) == errVar {
						handsOn = true
					}
					return !handsOn
				})
			}
		case *ast.CallExpr:
			if fid, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && fid.Name == "panic" {
				handsOn = true
			}
		}
		return !handsOn
	})
	if handsOn {
		return nil
	}
	return c
}

// oneCall returns the call that is all of rhs.
func oneCall(rhs []ast.Expr) (*ast.CallExpr, bool) {
	if len(rhs) != 1 {
		return nil, false
	}
	c, ok := ast.Unparen(rhs[0]).(*ast.CallExpr)
	return c, ok
}

// allBlank reports whether every expression of lhs is the blank identifier.
func allBlank(lhs []ast.Expr) bool {
	for _, l := range lhs {
		if id, ok := l.(*ast.Ident); !ok || id.Name != "_" {
			return false
		}
	}
	return true
}

// dropFailure applies a dropped error (at pos, "file.go:12") to e: an INSERT a unique key
// turns away, not made on a transaction, changes nothing on a repeat. When a caller's
// argument still decides the key's values (effect.Effect.KeyArg), the question stays with
// the effect: a caller that makes them anew has it add a row on every run again
// (statements' PassKeyArg). Anything else is returned as it is.
func dropFailure(e effect.Effect, pos string) effect.Effect {
	i := strings.Index(e.Detail, effect.KeyTurnsAway)
	if e.Kind != effect.SQLWrite || e.State != effect.Unprotected || e.Tx == effect.TxIn || i < 0 {
		return e
	}
	e.State = effect.Protected
	e.Detail = e.Detail[:i] + " fails on a repeat, and the error is dropped at " + pos + ": a repeat stops at the key and the job goes on"
	return e
}

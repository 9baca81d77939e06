// Goroutines a function starts and does not wait for. A handler that hands its work to
// `go func() { ... }()` and returns has its message acknowledged when it returns, while the
// goroutine is still running: a redelivery comes only if the process dies before that
// return, and then the goroutine dies with it. The goroutine's effects are made at most
// once, as after a claim: a crash loses them rather than repeating them.

package callgraph

import (
	"go/ast"
	"go/token"
	"go/types"
)

// markDetached marks the sites of n that start a goroutine n does not wait for: the call of
// a go statement written directly in n's body and followed there by nothing but a return
// (of no call), in a function that nowhere waits (no call of a Wait method, of a
// sync.WaitGroup or an errgroup.Group; no receive from a channel, no select), starting a
// goroutine that does not talk over channels (talks). The go statement's arguments are
// evaluated before it starts, and are not marked.
func (b *builder) markDetached(n *Node) {
	if n.Body == nil || len(n.Sites) == 0 || waits(b.in.Info, n.Body) {
		return
	}
	var starts []token.Pos
	for i, st := range n.Body.List {
		g, ok := st.(*ast.GoStmt)
		if !ok || !onlyReturns(n.Body.List[i+1:]) || b.talks(g.Call) {
			continue
		}
		starts = append(starts, g.Call.Pos())
	}
	if len(starts) == 0 {
		return
	}
	for i := range n.Sites {
		for _, p := range starts {
			if n.Sites[i].Pos == p {
				n.Sites[i].detached = true
			}
		}
	}
}

// talks reports whether the goroutine call starts talks over channels: a literal whose
// body sends, receives or selects (a worker reading a channel, handing results on), or a
// call given a channel (go worker(jobs)). Such a goroutine is a consumer of its own, or
// answers someone who waits: not work left behind.
func (b *builder) talks(call *ast.CallExpr) bool {
	if lit, ok := ast.Unparen(call.Fun).(*ast.FuncLit); ok {
		if waits(b.in.Info, lit.Body) {
			return true
		}
		sends := false
		ast.Inspect(lit.Body, func(x ast.Node) bool {
			_, isSend := x.(*ast.SendStmt)
			sends = sends || isSend
			return !sends
		})
		if sends {
			return true
		}
	}
	for _, arg := range call.Args {
		if t := b.in.Info.TypeOf(arg); t != nil {
			if _, isChan := t.Underlying().(*types.Chan); isChan {
				return true
			}
		}
	}
	return false
}

// onlyReturns reports whether stmts are at most one return statement whose results make no
// call: after a go statement, the function returns at once.
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
			if t := info.TypeOf(x.X); t != nil {
				_, isChan := t.Underlying().(*types.Chan)
				found = found || isChan
			}
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
				found = true
			}
		}
		return !found
	})
	return found
}

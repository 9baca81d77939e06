package callgraph

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// Receive calls the models do not name themselves. A consumer often reaches its library's
// receive call through its own seams: an interface of its own that the client implements
// (type ConsumerClient interface{ PollFetches(ctx) kgo.Fetches }), or a helper that polls,
// checks the errors and returns the batch to the loop that handles it. Both are receive
// calls of the caller; the helper's own receive is not, since it hands what it received
// back.

// receiveOf returns the framework of the receive call that call (of fn, in n) makes: fn's
// own model; for a method of an interface the models do not name, a modelled receive
// method of the same name whose receiver type implements the interface; for a function of
// this package, the receive whose result it returns, and for another package's, what its
// fact says (Fact.Receives). It is "" for a receive that n itself
// returns to its caller outside any loop: the caller's loop handles the message.
func (g *Graph) receiveOf(n *Node, fn *types.Func, call *ast.CallExpr) string {
	fw := g.receiveCall(fn, call)
	if fw != "" && n.Fn != nil && !inLoop(n.Body, call) && g.returnsReceive(n) != "" {
		return ""
	}
	return fw
}

// receiveCall is receiveOf without the exception for the helper's own receive.
func (g *Graph) receiveCall(fn *types.Func, call *ast.CallExpr) string {
	if fw := g.in.Judge.Models.Of(fn).Receive; fw != "" {
		return fw
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		return g.receiveThrough(fn, call)
	}
	if local := g.ByFunc[fn]; local != nil {
		return g.returnsReceive(local)
	}
	if fn.Pkg() != nil && fn.Pkg() != g.in.Pkg {
		if f := g.Fact(fn); f != nil {
			return f.Receives
		}
	}
	return ""
}

// receiveThrough returns the framework of a modelled receive method named like the
// interface method m whose receiver type implements the interface call is made on.
func (g *Graph) receiveThrough(m *types.Func, call *ast.CallExpr) string {
	iface := g.receiverInterface(m, call)
	if iface == nil {
		return ""
	}
	for _, full := range g.in.Judge.Models.ReceiveMethods(m.Name()) {
		if impl := g.lookupMethod(full); impl != nil && g.implements(impl, iface) {
			return g.in.Judge.Models.Of(impl.Origin()).Receive
		}
	}
	return ""
}

// returnsReceive returns the framework of the receive call whose result n returns (a
// result of its type made from the call, through local variables), or "".
func (g *Graph) returnsReceive(n *Node) string {
	if fw, ok := g.helpers[n]; ok {
		return fw
	}
	if g.helpers == nil {
		g.helpers = map[*Node]string{}
	}
	g.helpers[n] = "" // a recursive helper returns no receive through itself
	fw := ""
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range x.Results {
				if fw == "" {
					fw = g.receivedIn(r)
				}
			}
		}
		return fw == ""
	})
	g.helpers[n] = fw
	return fw
}

// receivedIn returns the framework of the receive call e is the result of, directly or
// through local variables: a call whose first result has e's type.
func (g *Graph) receivedIn(e ast.Expr) string {
	t := g.in.Info.TypeOf(e)
	if t == nil {
		return ""
	}
	fw := ""
	g.in.Judge.Defs.Find(e, 0, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(g.in.Info, call).(*types.Func)
		if !ok {
			return false
		}
		res := fn.Signature().Results()
		if res.Len() == 0 || !types.Identical(res.At(0).Type(), t) {
			return false
		}
		fw = g.receiveCall(fn.Origin(), call)
		return fw != ""
	})
	return fw
}

// inLoop reports whether call is inside a for or range statement of body, not looking
// into function literals.
func inLoop(body *ast.BlockStmt, call *ast.CallExpr) bool {
	found := false
	ast.Inspect(body, func(x ast.Node) bool {
		if found || x == nil || call.Pos() < x.Pos() || call.Pos() >= x.End() {
			return false
		}
		switch x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		}
		return !found
	})
	return found
}

// ReceiveSpan returns the part of n's body that handles what receive call r received: from
// the end of the call to the end of the innermost loop around it (not looking into
// function literals, whose loops are their own), or to the end of the body without one.
// loop is that loop, or nil.
func ReceiveSpan(n *Node, r Receive) (loop ast.Stmt, from, to token.Pos) {
	if loop = InnermostLoop(n.Body, r.Call.Pos()); loop != nil {
		return loop, r.Call.End(), loop.End()
	}
	return nil, r.Call.End(), n.Body.End()
}

// InnermostLoop returns the innermost for or range statement of body that holds pos, not
// looking into function literals (their loops are their own), or nil.
func InnermostLoop(body *ast.BlockStmt, pos token.Pos) ast.Stmt {
	var loop ast.Stmt
	ast.Inspect(body, func(x ast.Node) bool {
		if x == nil || pos < x.Pos() || pos >= x.End() {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			loop = x.(ast.Stmt)
		}
		return true
	})
	return loop
}

// markRegional marks the sites of n inside its receive regions: their effects are the
// regions' handlers', not n's.
func markRegional(n *Node) {
	for _, r := range n.Receives {
		_, from, to := ReceiveSpan(n, r)
		for i := range n.Sites {
			if p := n.Sites[i].Pos; p >= from && p < to {
				n.Sites[i].regional = true
			}
		}
	}
}

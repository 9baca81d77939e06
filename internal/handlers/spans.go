package handlers

// Receive spans: where the handling of a received message starts and ends in the syntax of
// the function that receives it. The call graph asks ReceiveSpan while it is built
// (callgraph.Input.ReceiveSpan) to keep the region's sites out of the function's own
// effects; the regions made after Solve start from the same span (loops.go).

import (
	"go/ast"
	"go/token"

	"github.com/chokaq/idemlint/internal/callgraph"
)

// ReceiveSpan returns the part of n's body that handles what receive call r received: from
// the end of the call to the end of the innermost loop around it (not looking into
// function literals, whose loops are their own), or to the end of the body without one.
// The sites there are the region's handler's: its callers, who start a consumer loop, do
// not handle its messages.
func ReceiveSpan(n *callgraph.Node, r callgraph.Receive) (from, to token.Pos) {
	_, from, to = receiveSpan(n, r)
	return from, to
}

// receiveSpan is ReceiveSpan with the loop it ends at, or nil.
func receiveSpan(n *callgraph.Node, r callgraph.Receive) (loop ast.Stmt, from, to token.Pos) {
	if loop = innermostLoop(n.Body, r.Call.Pos()); loop != nil {
		return loop, r.Call.End(), loop.End()
	}
	return nil, r.Call.End(), n.Body.End()
}

// innermostLoop returns the innermost for or range statement of body that holds pos, not
// looking into function literals (their loops are their own), or nil.
func innermostLoop(body *ast.BlockStmt, pos token.Pos) ast.Stmt {
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

// loopBlock returns a loop's body as a block that starts at the loop's keyword, where the
// handler is declared.
func loopBlock(loop ast.Stmt) *ast.BlockStmt {
	var b *ast.BlockStmt
	switch l := loop.(type) {
	case *ast.ForStmt:
		b = l.Body
	case *ast.RangeStmt:
		b = l.Body
	}
	return &ast.BlockStmt{Lbrace: loop.Pos(), List: b.List, Rbrace: b.Rbrace}
}

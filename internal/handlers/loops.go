// Receive loops: a consumer that pulls messages itself (sub.Fetch, reader.FetchMessage,
// sqs ReceiveMessage) and handles each in place. Its handler is no function but a region of
// one: the code after the receive, to the end of the innermost loop around it, where the
// message is processed and then acknowledged, committed or deleted; without a loop around
// the receive (a function that reschedules itself), the rest of the function.

package handlers

import (
	"go/ast"
	"go/token"

	"github.com/chokaq/idemlint/internal/callgraph"
)

// receiveLoops returns a handler per loop (or function tail) that handles what a modelled
// receive call in n's body received, ending at the first ack of the loop's body (ackEnd),
// and the handlers of its receives from channels of deliveries (channels.go). Two receives
// in one loop make one handler.
func (f *finder) receiveLoops(n *callgraph.Node) []candidate {
	var out []candidate
	seen := map[ast.Node]bool{}
	for _, r := range n.Receives {
		loop, _, end := callgraph.ReceiveSpan(n, r)
		var body *ast.BlockStmt
		name := "receive loop in " + n.Name
		if loop != nil {
			if seen[loop] {
				continue
			}
			seen[loop] = true
			body = loopBlock(loop)
		} else {
			// The block starts at the receive, so that the handler is declared there.
			body = &ast.BlockStmt{Lbrace: r.Call.Pos(), List: n.Body.List, Rbrace: n.Body.Rbrace}
			name = "receive in " + n.Name
		}
		if a := f.ackEnd(body.List, r.Call.End()); a != token.NoPos && a < end {
			end = a // after the ack, a crash no longer redelivers the message
		}
		region := f.graph.Region(n, name, body, r.Call.End(), end)
		if len(region.Effects) == 0 && f.inWrapper(n) {
			// A registration wrapper's own loop (fetch, hand the batch to the callback, ack)
			// with nothing of its own: the handlers are the callbacks its callers pass.
			continue
		}
		out = append(out, candidate{Node: region, Framework: r.Framework})
	}
	return append(out, f.channelReceives(n)...)
}

// inWrapper reports whether n is a registration wrapper or a literal inside one.
func (f *finder) inWrapper(n *callgraph.Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Fn != nil && len(f.wrappers[n.Fn]) > 0 {
			return true
		}
	}
	return false
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

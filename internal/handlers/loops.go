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
func (rg *regions) receiveLoops(n *callgraph.Node) []candidate {
	var out []candidate
	seen := map[ast.Node]bool{}
	for _, r := range n.Receives {
		loop, _, end := receiveSpan(n, r)
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
		if a := rg.ackEnd(body.List, r.Call.End()); a != token.NoPos && a < end {
			end = a // after the ack, a crash no longer redelivers the message
		}
		region := rg.graph.Region(n, name, body, r.Call.End(), end)
		if len(region.Effects) == 0 && rg.inWrapper(n) {
			// A registration wrapper's own loop (fetch, hand the batch to the callback, ack)
			// with nothing of its own: the handlers are the callbacks its callers pass.
			continue
		}
		out = append(out, candidate{Node: region, Framework: r.Framework})
	}
	return append(out, rg.channelReceives(n)...)
}

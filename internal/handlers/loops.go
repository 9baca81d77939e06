// Receive loops: a consumer that pulls messages itself (sub.Fetch, reader.FetchMessage,
// sqs ReceiveMessage) and handles each in place. Its handler is no function but a region of
// one: the code after the receive, to the end of the innermost loop around it, where the
// message is processed and then acknowledged, committed or deleted; without a loop around
// the receive (a function that reschedules itself), the rest of the function.

package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/frameworks"
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
		once := readOnce(rg.info, rg.defs, rg.files, rg.graph.Nodes, r)
		region := rg.graph.Region(n, name, body, r.Call.End(), end)
		if a := rg.ackEnd(body.List, r.Call.End()); a != token.NoPos && a < end {
			// After the ack, a crash no longer redelivers the message: the handler ends
			// there, unless it acknowledges before it handles anything, when every effect
			// after the ack runs at most once.
			acked := rg.graph.Region(n, name, body, r.Call.End(), a)
			if len(acked.Effects) > 0 || len(region.Effects) == 0 {
				region = acked
			} else if once == "" {
				once = "it acknowledges each message (" + rg.fset.Position(a).String() + ") before handling it: a crash after the ack loses the message, and nothing delivers it again"
			}
		}
		if (len(region.Effects) == 0 && (rg.inWrapper(n) || rg.forwards(body))) || rg.handsOn(body) {
			// A registration wrapper's own loop (fetch, hand the batch to the callback, ack)
			// with nothing of its own: the handlers are the callbacks its callers pass; a
			// loop that sends what it fetched on to workers: the workers are (handoff.go);
			// one that calls the handler a field holds, whatever that reaches: what is
			// stored there is (registerStored), judged once, where it is declared.
			continue
		}
		out = append(out, candidate{Node: region, Framework: r.Framework, AtMostOnce: once})
	}
	return append(out, rg.channelReceives(n)...)
}

// readOnce says why the message r receives is never delivered again, from the read it makes
// (frameworks.StreamsOnce), or "". A package that receives from the same framework through a
// helper of another package (store.ClaimStaleMessages), whose command is not in view, may
// claim or re-read pending entries there: no read of it is known to deliver at most once.
func readOnce(info *types.Info, defs *defuse.Index, files []*ast.File, nodes []*callgraph.Node, r callgraph.Receive) string {
	if r.Read == nil {
		return ""
	}
	once := frameworks.StreamsOnce(info, defs, r.Read, files) // "" at once for most reads
	if once == "" || unreadReceive(nodes, r.Framework) {
		return ""
	}
	return once
}

// unreadReceive reports whether a node receives from framework through a helper of another
// package.
func unreadReceive(nodes []*callgraph.Node, framework string) bool {
	for _, n := range nodes {
		for _, r := range n.Receives {
			if r.Read == nil && r.Framework == framework {
				return true
			}
		}
	}
	return false
}

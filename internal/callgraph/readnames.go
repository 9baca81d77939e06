// Calls of functions whose name says they read. A POST a client's QueryPayment or a helper
// named fetchSkipMeDB makes is how the remote API takes a lookup (an RPC envelope naming a
// query method, a body of ids, a persisted GraphQL query): its repeat reads again. The name
// is the function's author saying what calling it does (requests.ReadingName), as a
// dead-letter queue's name is (deadletter.go). Only a POST whose chain below the call goes
// through no function named for a write (createDiscovery, chargeCard) is read so: a
// getter that creates what it does not find says so in a callee's name.

package callgraph

import (
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks/requests"
)

// markReadNames marks the sites of n that call a function of the program, of this
// package or another, whose name says it reads (Site.readName). A sink's own call is the
// library's name, not the program's, and a function value's has no name of its own.
func (b *builder) markReadNames(n *Node) {
	for i := range n.Sites {
		s := &n.Sites[i]
		if s.sink == nil && !s.inline && s.value == "" && requests.ReadingName(bareName(s.callee)) {
			s.readName = true
		}
	}
}

// bareName returns the function's name in a hop name: "QueryPayment" for
// "(*aggregatepay.HTTPClient).QueryPayment", "fetch" for "client.fetch".
func bareName(hop string) string {
	return hop[strings.LastIndexByte(hop, '.')+1:]
}

// readAside applies a call of a function named for a read to e: an HTTP POST it brings,
// not protected, with no function named for a write on its chain, reads. Anything else (a
// database write, a publish, a request whose method its callers decide) is returned as it
// is.
func readAside(e effect.Effect, call string) effect.Effect {
	if e.Kind != effect.HTTPWrite || e.State >= effect.Claimed || e.Conditional() || !strings.HasPrefix(e.Detail, "HTTP POST") {
		return e
	}
	for _, h := range e.Chain {
		if requests.WritingName(bareName(h.Func)) {
			return e
		}
	}
	e.State = effect.Protected
	e.Detail = "HTTP POST made by " + call + ", whose name says it reads: a repeat reads again"
	return e
}

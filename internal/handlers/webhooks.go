// Webhook checks in helpers: a service method that verifies a webhook's signature (a
// modelled handler call) is not the handler of the delivery; the net/http handler that
// calls it is.

package handlers

import (
	"go/types"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// handlerCallOwners moves a handler call out of helpers: for each node that makes a
// handler call but has no net/http handler signature, the nearest functions of this package
// with one that reach it (through calls and closures) are the handlers, with its framework,
// and the helper is not. A helper no HTTP handler in view reaches stays the handler.
func (f *finder) handlerCallOwners() (owners map[*callgraph.Node]string, moved map[*callgraph.Node]bool) {
	owners, moved = map[*callgraph.Node]string{}, map[*callgraph.Node]bool{}
	var callers map[*callgraph.Node][]*callgraph.Node
	for _, n := range f.graph.Nodes {
		if n.HandlerCall == "" || isHTTPHandler(n.Sig) {
			continue
		}
		if callers == nil {
			callers = callerIndex(f.graph.Nodes)
		}
		found := httpCallers(n, callers)
		for _, o := range found {
			if owners[o] == "" {
				owners[o] = n.HandlerCall
			}
		}
		moved[n] = len(found) > 0
	}
	return owners, moved
}

// callerIndex maps each node to the nodes that call it or define it.
func callerIndex(nodes []*callgraph.Node) map[*callgraph.Node][]*callgraph.Node {
	out := map[*callgraph.Node][]*callgraph.Node{}
	for _, m := range nodes {
		for _, c := range m.Callees() {
			out[c] = append(out[c], m)
		}
	}
	return out
}

// httpCallers walks n's callers breadth first, at most effect.MaxChain hops, and returns
// the nearest ones with a net/http handler signature (it does not walk past them).
func httpCallers(n *callgraph.Node, callers map[*callgraph.Node][]*callgraph.Node) []*callgraph.Node {
	var out []*callgraph.Node
	seen := map[*callgraph.Node]bool{n: true}
	level := []*callgraph.Node{n}
	for depth := 0; depth < effect.MaxChain && len(level) > 0; depth++ {
		var next []*callgraph.Node
		for _, m := range level {
			for _, c := range callers[m] {
				if seen[c] {
					continue
				}
				seen[c] = true
				if isHTTPHandler(c.Sig) {
					out = append(out, c)
				} else {
					next = append(next, c)
				}
			}
		}
		level = next
	}
	return out
}

var (
	responseWriter = model.TypeRef{Path: "net/http", Name: "ResponseWriter"}
	request        = model.TypeRef{Path: "net/http", Name: "Request", Ptr: true}
)

// isHTTPHandler reports whether sig is a net/http handler's: func(http.ResponseWriter,
// *http.Request) (a ServeHTTP method has it too).
func isHTTPHandler(sig *types.Signature) bool {
	return sig != nil && sig.Params().Len() == 2 && sig.Results().Len() == 0 &&
		matchType(sig.Params().At(0).Type(), responseWriter) && matchType(sig.Params().At(1).Type(), request)
}

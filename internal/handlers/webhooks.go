// Webhook checks in helpers: a service method that verifies a webhook's signature (a
// modelled handler call) is not the handler of the delivery; the net/http handler that
// calls it is, in this package or in another (the method's fact says it checks one:
// Checks; the program-wide link tells its own package that it was taken over).

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
//
// A call of another package's function that checks one (callgraph.Checked) is moved the
// same way, to the HTTP handler that makes it or the nearest that reach its caller; and a
// helper of this package that the program's other packages took over (takenOver) is no
// handler.
func (f *finder) handlerCallOwners(takenOver func(*types.Func) bool) (owners map[*callgraph.Node]string, moved map[*callgraph.Node]bool) {
	owners, moved = map[*callgraph.Node]string{}, map[*callgraph.Node]bool{}
	var callers map[*callgraph.Node][]*callgraph.Node
	for _, n := range f.graph.Nodes {
		framework := checkOf(n)
		if framework == "" || isHTTPHandler(n.Sig) {
			if framework != "" && owners[n] == "" {
				owners[n] = framework
			}
			continue
		}
		if callers == nil {
			callers = callerIndex(f.graph.Nodes)
		}
		found := httpCallers(n, callers)
		for _, o := range found {
			if owners[o] == "" {
				owners[o] = framework
			}
		}
		moved[n] = len(found) > 0 || (n.Fn != nil && takenOver != nil && takenOver(n.Fn))
	}
	return owners, moved
}

// checkOf returns the framework of the webhook n checks, itself or by calling another
// package's function that does, or "".
func checkOf(n *callgraph.Node) string {
	if n.HandlerCall != "" {
		return n.HandlerCall
	}
	if len(n.ChecksVia) > 0 {
		return n.ChecksVia[0].Framework
	}
	return ""
}

// WithChecks marks, in the facts the package exports, the exported functions and methods
// that check a webhook (checkOf) and are no net/http handler: their callers in other
// packages take over the delivery. facts keeps its order; new ones follow in the graph's.
func WithChecks(facts []callgraph.FuncFact, nodes []*callgraph.Node) []callgraph.FuncFact {
	byFn := map[*types.Func]*effect.Fact{}
	for _, ff := range facts {
		byFn[ff.Fn] = ff.Fact
	}
	for _, n := range nodes {
		framework := checkOf(n)
		if n.Fn == nil || framework == "" || isHTTPHandler(n.Sig) || (!n.Fn.Exported() && n.Fn.Signature().Recv() == nil) {
			continue
		}
		if fact := byFn[n.Fn]; fact != nil {
			fact.Checks = framework
			continue
		}
		facts = append(facts, callgraph.FuncFact{Fn: n.Fn, Fact: &effect.Fact{Checks: framework}})
	}
	return facts
}

// TakenOver returns the functions of other packages (full names) whose webhook check an
// HTTP handler of this package makes, or reaches through this package's calls: for the
// program-wide link to tell their own packages that they are not the handlers.
func TakenOver(nodes []*callgraph.Node) []string {
	var out []string
	var callers map[*callgraph.Node][]*callgraph.Node
	for _, n := range nodes {
		if len(n.ChecksVia) == 0 {
			continue
		}
		if !isHTTPHandler(n.Sig) {
			if callers == nil {
				callers = callerIndex(nodes)
			}
			if len(httpCallers(n, callers)) == 0 {
				continue
			}
		}
		for _, c := range n.ChecksVia {
			out = append(out, c.Fn.FullName())
		}
	}
	return out
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

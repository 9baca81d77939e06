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

// passesCheck reports whether a function that checks a webhook (checkOf) tells importers
// so in its fact: an exported function or a method that is no HTTP handler.
func passesCheck(n *callgraph.Node) bool {
	return n.Fn != nil && !isHTTPHandler(n.Sig) && (n.Fn.Exported() || n.Fn.Signature().Recv() != nil)
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
		if framework == "" || !passesCheck(n) {
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

// CheckCalls returns this package's calls of functions of other packages that check a
// webhook, for the program-wide link to decide which of those functions are not the
// deliveries' handlers: those an HTTP handler takes over (link.TakenOver).
func CheckCalls(nodes []*callgraph.Node) []callgraph.CheckCall {
	var out []callgraph.CheckCall
	var callers map[*callgraph.Node][]*callgraph.Node
	for _, n := range nodes {
		if len(n.ChecksVia) == 0 {
			continue
		}
		http := isHTTPHandler(n.Sig)
		if !http {
			if callers == nil {
				callers = callerIndex(nodes)
			}
			http = len(httpCallers(n, callers)) > 0
		}
		caller := ""
		if n.Fn != nil {
			caller = n.Fn.FullName()
		}
		for _, c := range n.ChecksVia {
			out = append(out, callgraph.CheckCall{Caller: caller, Callee: c.Fn.FullName(), HTTP: http})
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

// httpHandlers are the signatures of the functions a webhook delivery lands in: net/http's
// handlers (a ServeHTTP method has the signature too), and those of the common routers
// that do not use it: gin, echo and fiber.
var httpHandlers = []struct {
	params  []model.TypeRef
	results int // each an error
}{
	{[]model.TypeRef{{Path: "net/http", Name: "ResponseWriter"}, {Path: "net/http", Name: "Request", Ptr: true}}, 0},
	{[]model.TypeRef{{Path: "github.com/gin-gonic/gin", Name: "Context", Ptr: true}}, 0},
	{[]model.TypeRef{{Path: "github.com/labstack/echo/v4", Name: "Context"}}, 1},
	{[]model.TypeRef{{Path: "github.com/gofiber/fiber/v2", Name: "Ctx", Ptr: true}}, 1},
}

// isHTTPHandler reports whether sig is an HTTP handler's (httpHandlers).
func isHTTPHandler(sig *types.Signature) bool {
	if sig == nil {
		return false
	}
	for _, h := range httpHandlers {
		if sig.Params().Len() == len(h.params) && sig.Results().Len() == h.results && allMatch(sig.Params(), h.params) &&
			(h.results == 0 || types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())) {
			return true
		}
	}
	return false
}

// allMatch reports whether each parameter has the type of its reference.
func allMatch(params *types.Tuple, refs []model.TypeRef) bool {
	for i, ref := range refs {
		if !matchType(params.At(i).Type(), ref) {
			return false
		}
	}
	return true
}

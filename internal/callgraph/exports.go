package callgraph

// What the graph hands to other packages once solved: the facts importers read, and the
// summary a program-wide link reads. Both are plain values made from the nodes.

import (
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/routes"
	"github.com/chokaq/idemlint/internal/topics"
)

// FuncFact is a function of the package with its solved effects.
type FuncFact struct {
	Fn   *types.Func
	Fact *effect.Fact
}

// funcFacts returns the facts of the functions of nodes keep selects that have effects
// (or, with calls, call a parameter), with what claimOf, requestOf, guardOf and receives say
// of their result.
func funcFacts(nodes []*Node, claimOf func(*types.Func) *effect.Claim, requestOf func(*types.Func) *effect.Request, guardOf func(*types.Func) bool, receives func(*Node) string, keep func(*types.Func) bool, withCalls bool) []FuncFact {
	var out []FuncFact
	for _, n := range nodes {
		var calls uint64
		if withCalls {
			calls = n.Calls
		}
		if n.Fn == nil || !keep(n.Fn) {
			continue
		}
		claim := claimOf(n.Fn)
		request := requestOf(n.Fn)
		guards := guardOf(n.Fn)
		receives := receives(n) // set while resolving the function's own receive call
		if len(n.Effects) == 0 && !n.TxCompletion && calls == 0 && claim == nil && request == nil && !guards && receives == "" {
			continue
		}
		out = append(out, FuncFact{n.Fn, &effect.Fact{Effects: append(effect.Set(nil), n.Effects...), CompletesInTx: n.TxCompletion, Calls: calls, Claim: claim, Request: request, Guards: guards, Receives: receives}})
	}
	return out
}

// exportedOrMethod selects the functions another package can call: exported ones and
// methods (an interface call can reach an unexported method).
func exportedOrMethod(fn *types.Func) bool { return fn.Exported() || fn.Signature().Recv() != nil }

// isMethod selects methods, exported or not.
func isMethod(fn *types.Func) bool { return fn.Signature().Recv() != nil }

// Summary is what a program-wide link needs of one package: its open interface calls, its
// methods with effects, and the types it converts to interfaces. It holds no node, so the
// package's graph is not kept alive by a driver that keeps every package's result.
type Summary struct {
	Open      []OpenGroup
	Methods   []FuncFact
	Converted []*types.Named
	// CheckCalls are the package's calls of functions of other packages that check a
	// webhook (filled by the caller: handlers.CheckCalls).
	CheckCalls []CheckCall
	// Registered are the functions of other packages this package registers as handlers
	// where their own package cannot know they are (filled by the caller from
	// handlers.Found.Remote): a program-wide link hands each to its own package, which
	// then judges it as one of its handlers.
	Registered []Registration
	// Routes are the HTTP routes the package serves (filled by the caller:
	// handlers.Routes), and Sent the requests it sends that only such a route could show
	// to be safe (sinks.Judge.Sent): a program-wide link judges the one by the other.
	Routes []routes.Route
	Sent   []routes.Request
	// Consumers are the topics the package's handlers consume where it registers them,
	// Subscriptions its registrations of other packages' functions for a topic, and
	// Verdicts whether each of its declared handlers is safe to run again (filled by the
	// caller: handlers.Consumers, Subscriptions, Verdicts); Published are the constant
	// topics it publishes to that only a consumer could show to be safe
	// (sinks.Judge.Published). A program-wide link judges the one by the others.
	Consumers     []topics.Consumer
	Subscriptions []topics.Subscription
	Verdicts      []topics.Verdict
	Published     []topics.Message
	// Carriers are the channel element types the package's receive loops hand deliveries
	// on over (filled by the caller: handlers.Found.Carriers): a package that reads such a
	// channel but imports neither the sender nor its fact learns them from the link.
	Carriers []Carrier
}

// Carrier is a channel element type ("pkg/path.Type") that carries deliveries of a
// framework: a receive loop sends deliveries on over a channel of it (handlers' hand-offs).
type Carrier struct {
	Type      string `json:"type"`
	Framework string `json:"framework"`
	// Once says why what is read from such a channel runs at most once (the loop that
	// hands it on acks each delivery itself), or "".
	Once string `json:"once,omitempty"`
}

// Registration is a function of another package registered as a handler (Func, a full
// name; Pkg, its package path) by a package that is not its own, written without go/types
// so that a summary can be stored and linked as it is. At is the registration's position,
// "file:line:col" with the file as loaded: the handler's findings name it.
type Registration struct {
	Func      string `json:"func"`
	Pkg       string `json:"pkg"`
	Framework string `json:"framework"`
	At        string `json:"at"`
	// Wrapped: the registration hands it to the runtime middleware; Retention: with an
	// explicit completion retention.
	Wrapped   bool `json:"wrapped,omitempty"`
	Retention bool `json:"retention,omitempty"`
	// Once says why it runs at most once per message (the wrapper it is handed to
	// acknowledges each message before calling it), or "".
	Once string `json:"once,omitempty"`
}

// CheckCall is a call of a function of another package that checks a webhook (Callee, a
// full name) by a function of this package (Caller; "" for a literal). HTTP says that the
// caller is an HTTP handler or one reaches it in the package: the callee is then not the
// delivery's handler, nor are the callees of a caller taken over in turn.
type CheckCall struct {
	Caller, Callee string
	HTTP           bool
}

// OpenGroup is the package's open interface calls of one method on one receiver type: a
// link resolves them once, and a summary holds a position per call, not a call.
type OpenGroup struct {
	Method *types.Func
	Recv   *types.Interface
	Pos    []token.Pos
}

// openGroups groups the open interface calls by method and receiver type, in the order
// of their first call.
func openGroups(calls []OpenCall) []OpenGroup {
	type key struct {
		m *types.Func
		r *types.Interface
	}
	index := map[key]int{}
	var open []OpenGroup
	for _, o := range calls {
		if o.Kind != OpenInterface || o.Recv == nil {
			continue
		}
		k := key{o.Method, o.Recv}
		i, ok := index[k]
		if !ok {
			i = len(open)
			index[k] = i
			open = append(open, OpenGroup{Method: o.Method, Recv: o.Recv})
		}
		open[i].Pos = append(open[i].Pos, o.Pos)
	}
	return open
}

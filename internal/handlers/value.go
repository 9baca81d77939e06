package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
)

// Handler is a job or message handler of the package as the later stages (the checks, the
// report) read it: a plain value made when Find ends, with what they need of the call graph
// already taken from it (where each effect enters its body, every sink of a kind it reaches,
// the interface calls it leaves unresolved). The checks can then be tested on a Handler
// written by hand, and nothing after Find reaches back into the graph.
type Handler struct {
	Name      string // as in messages: "HandleOrder", "(*ChargeHandler).ProcessTask"
	Framework string // "asynq", "river", "watermill", "idempotency", "directive", ...
	// Pos is where it is declared: its declaration's name, its literal, or (a receive loop)
	// the start of its block.
	Pos token.Pos
	// Body is the opening brace of its body: where a finding goes when its effect enters
	// through no call of the body.
	Body token.Pos
	// Decl is its declaration, for a handler declared as a function or method (nil for a
	// literal or a receive loop): where a suggested //idemlint:decisions line goes.
	Decl *Decl
	// Fn is the function or method declared there (nil with Decl): what other packages
	// register.
	Fn  *types.Func
	Sig *types.Signature // nil when not type-checked

	// Effects are its effects after the directives in its body and doc comment.
	Effects effect.Set
	// Paths says, per effect kind, how the effect Effects holds enters it.
	Paths map[effect.Kind]Path
	// Reached lists, per kind of an effect that can be a finding (not protected), every
	// sink of that kind it reaches (callgraph.Graph.Reach): a finding names the others.
	Reached map[effect.Kind][]callgraph.Reached
	// Unresolved are the interface calls it makes (in its body or its package's callees)
	// that resolved to nothing: a driver that sees the whole program tells which nothing
	// implements (callgraph.Graph.Unresolved).
	Unresolved []callgraph.OpenCall
	// Unfollowed are the function values its body calls with nothing in view behind them
	// (callgraph.Graph.Unfollowed): a callback it was given, a field another package
	// fills. Its effects there are not known.
	Unfollowed []string
	// TxCompletion: it (or a callee) stores the job's completion in its database transaction.
	TxCompletion bool
	// Decisions is the //idemlint:decisions directive of its doc comment, or nil.
	Decisions *directive.Directive
	// Locals lists the types of the variables its body declares (the payload decoded into
	// one), for a declaration's key to be found among their fields as among its
	// parameters'. Set only when a declaration names a key: nothing else reads it.
	Locals []types.Type

	Wrapped bool // handed to idemlint's runtime middleware in this package
	// Retention: the middleware it is handed to has an explicit completion retention
	// (WithRetention, or jobs that report their own): the ttl decision is answered.
	Retention bool
	// Review says how it asks for manual review of a job after a partial side effect, or
	// "": its body calls a modelled review call (returns idempotency.NeedsReview(err)), or
	// the middleware it is handed to here is built WithNeedsReview. The partial decision is
	// then answered (manual review).
	Review string
	// Dedup names the in-memory deduplicating middleware of the router it is registered on
	// (Watermill's Deduplicator), or "": its findings say that this is not enforcement.
	Dedup string
	// RegCall is the modelled registration in this package that hands it to its framework
	// (the first one): the job it serves, and the fix that wraps it with the middleware.
	RegCall *ast.CallExpr
	// WrapperTopic is the topic a registration wrapper of the program was given with it
	// (the first), when no modelled registration here names one: what it consumes.
	WrapperTopic *WrapperTopic
	// Elsewhere are its registrations in other packages of the program, when its own
	// package could not know it is a handler (a method registered in main with
	// mux.HandleFunc): its findings name them.
	Elsewhere []callgraph.Registration
	// AtMostOnce says why its queue never runs its job again (every insert site in view
	// sets River MaxAttempts 1 or asynq MaxRetry(0)), or "": its effects are then not
	// retry duplicates. Set by the analyzer from the retry settings in view.
	AtMostOnce string
	// UniqueJob says why its job has a stable identity at insertion (River UniqueOpts
	// ByArgs declared by its args type's InsertOpts), or "": the key decision of its
	// unprotected effects is answered, their enforcement is not (a retry of the same job
	// repeats them). Set by the analyzer from the settings in view.
	UniqueJob string
}

// Decl is where a handler's declaration and its doc comment are.
type Decl struct {
	Start  token.Pos // the declaration's first token ("func")
	DocEnd token.Pos // the end of its doc comment; NoPos without one
}

// Path is how a handler's effect of one kind enters it in this package.
type Path struct {
	// Call is the call (or closure) in the handler's body that leads to the effect.
	Call token.Pos
	// Hops are the calls after Call along the package's own functions, each with the
	// function it is made in, as far as they are known (effect.MaxChain at most): the
	// steps an editor can walk.
	Hops []Hop
	// Last is the call of the last function of the package on the way, the one that
	// makes the sink call (Call when the handler makes it); NoPos when the way leaves
	// what the package's nodes record.
	Last token.Pos
}

// Hop is one call on a Path: where, and in which function of the package.
type Hop struct {
	Pos  token.Pos
	Func string // the function the call is made in: "notify.send"
}

// value makes the Handler later stages read from a candidate.
func (f *finder) value(c candidate) Handler {
	n := c.Node
	h := Handler{
		Name: n.Name, Framework: c.Framework, Pos: n.Pos(), Body: n.Body.Lbrace, Sig: n.Sig,
		Effects: n.Effects, TxCompletion: n.TxCompletion, Decisions: n.Decisions,
		Wrapped: c.Wrapped, Retention: c.Retention, Dedup: c.Dedup, RegCall: c.RegCall, WrapperTopic: c.WrapperTopic, Elsewhere: c.Elsewhere,
		AtMostOnce: c.AtMostOnce,
		Unresolved: f.graph.Unresolved(n),
		Unfollowed: f.graph.Unfollowed(n),
	}
	h.Review = f.reviewOf(n)
	if h.Review == "" && c.Review {
		h.Review = "its idempotency middleware is built WithNeedsReview"
	}
	if n.Decl != nil {
		h.Fn = n.Fn
		h.Decl = &Decl{Start: n.Decl.Pos()}
		if n.Decl.Doc != nil {
			h.Decl.DocEnd = n.Decl.Doc.End()
		}
	}
	for _, e := range n.Effects {
		if h.Paths == nil {
			h.Paths = map[effect.Kind]Path{}
		}
		h.Paths[e.Kind] = pathOf(n, e.Kind)
		if e.State != effect.Protected && !e.Conditional() {
			if h.Reached == nil {
				h.Reached = map[effect.Kind][]callgraph.Reached{}
			}
			h.Reached[e.Kind] = f.graph.Reach(n, e.Kind)
		}
	}
	if d := n.Decisions; d != nil && d.Err == "" && d.Decisions != nil && d.Decisions.Key != "" {
		h.Locals = locals(n.Body, f.info)
	}
	return h
}

// reviewOf says how n's body asks for manual review: the first modelled review call in it,
// its closures included ("returns idempotency.NeedsReview"), or "".
func (f *finder) reviewOf(n *callgraph.Node) string {
	why := ""
	ast.Inspect(n.Body, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok || why != "" {
			return why == ""
		}
		if fn, ok := typeutil.Callee(f.info, call).(*types.Func); ok && f.models.Of(fn.Origin()).Review {
			why = "returns " + fn.Pkg().Name() + "." + fn.Name()
		}
		return true
	})
	return why
}

// pathOf follows the origins of kind k from n through the package's nodes.
func pathOf(n *callgraph.Node, k effect.Kind) Path {
	o := n.From[k]
	p := Path{Call: o.Pos}
	// The hops an editor walks: stop at the first node whose origin is unknown.
	for v, depth := o.Via, 0; v != nil && depth < effect.MaxChain; depth++ {
		next, ok := v.From[k]
		if !ok || !next.Pos.IsValid() {
			break
		}
		p.Hops = append(p.Hops, Hop{Pos: next.Pos, Func: v.Name})
		v = next.Via
	}
	// The call that makes the sink call: the end of the origins, wherever they lead.
	for depth := 0; o.Via != nil && depth < effect.MaxChain; depth++ {
		o = o.Via.From[k]
	}
	p.Last = o.Pos
	return p
}

// locals returns the types of the variables body declares.
func locals(body *ast.BlockStmt, info *types.Info) []types.Type {
	var out []types.Type
	ast.Inspect(body, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if v, ok := info.Defs[id].(*types.Var); ok {
				out = append(out, v.Type())
			}
		}
		return true
	})
	return out
}

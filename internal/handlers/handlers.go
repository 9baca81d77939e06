// Package handlers finds a package's entry points: the functions a queue or broker runs as
// job or message handlers, from the models' handler shapes and registrations, the runtime
// middleware's wrappers, modelled handler calls (a webhook signature check) and
// //idemlint:handler directives. It reads the call graph's nodes and knows no checks.
package handlers

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/model"
)

// Find lists the handlers of the package:
//   - methods with a framework's handler method shape (asynq ProcessTask, River Work);
//   - functions with a framework's handler function shape, when exported (another package
//     may register them) or used as a value here (registered, converted, stored);
//   - function literals with such a shape that are not called on the spot;
//   - functions, method values and literals handed to a modelled registration or to a
//     registration wrapper (FindWrappers, facts), and the exported methods of a value
//     handed to a registration that registers methods; an interface's method value
//     (l.Handle) stands for its implementations in this package, or else for what the
//     framework's call may run (a node of its own: the implementations in the
//     dependencies, and those a program-wide link finds);
//   - functions handed to the runtime middleware (its shape is func(ctx, job J) error);
//   - functions that call a modelled handler call (a webhook signature check), or the
//     net/http handlers of this package that reach such a function (webhooks.go);
//   - receive loops: the code after a modelled receive call (sub.Fetch, FetchMessage), to
//     the end of the innermost loop around it, a region of a function (loops.go);
//   - functions marked //idemlint:handler (Found.Used lists the directive);
//   - functions other packages of the program register where this package could not know
//     they are handlers (Input.Registered, from a program-wide link: mux.HandleFunc(T,
//     h.Send) in main), wrapped when every registration hands them to the middleware.
//
// Nothing declared in a _test.go file is a handler, nor a literal that middleware returns
// (see factories.go), unless a directive says so.
//
// Handlers are reported where they are declared: the diagnostic then sits in the handler's
// body, in the package that owns it, whichever package registers it.
func Find(in Input) Found {
	f := &finder{pkg: in.Pkg, info: in.Info, fset: in.Fset, files: in.Files, graph: in.Graph, defs: in.Defs, models: in.Models, wrappers: in.Wrappers,
		byPos: map[token.Pos]*callgraph.Node{}, table: in.Table, fields: in.Fields, fieldFact: in.FieldFact}
	regs := f.scanRegistrations()
	owners, moved := f.handlerCallOwners(in.TakenOver)
	var out []candidate
	var used []*directive.Directive
	rg := &regions{pkg: in.Pkg, graph: in.Graph, info: in.Info, fset: in.Fset, files: in.Files, defs: in.Defs, models: in.Models, inWrapper: f.inWrapper,
		depCarriers: in.Carriers, handsOn: f.handsOn}
	carriers := rg.findCarriers(f.graph.Nodes)
	for _, n := range slices.Concat(f.graph.Nodes, f.extra) {
		if n.Marked == nil && f.notHandler(n) {
			continue
		}
		out = append(out, rg.receiveLoops(n)...)
		h := candidate{Node: n, Wrapped: regs.wrapped[n], Retention: regs.retention[n], Review: regs.review[n]}
		elsewhere := f.registeredElsewhere(n, in.Registered)
		switch {
		case n.Marked != nil:
			used = append(used, n.Marked)
			h.Framework = "directive"
		case regs.registered[n] != "" && n.Lit != nil && len(n.Effects) == 0 && f.inWrapper(n):
			// A registration wrapper's closure that does nothing but call what the
			// wrapper was given: the handlers are what its callers pass.
			continue
		case regs.registered[n] != "":
			h.Framework, h.AtMostOnce = regs.registered[n], regs.once[n]
		case n.HandlerCall != "" && !moved[n]:
			h.Framework = n.HandlerCall
		case owners[n] != "":
			h.Framework = owners[n] // it calls a helper that checks a webhook (webhooks.go)
		case h.Wrapped:
			h.Framework = "idempotency"
		case len(elsewhere) > 0:
			h.Framework = elsewhere[0].Framework
		default:
			shape := f.shapeOfNode(n, regs)
			if shape == nil {
				continue
			}
			h = candidate{Node: n, Framework: shape.Framework}
		}
		h.Dedup, h.RegCall, h.WrapperTopic, h.Elsewhere = regs.dedup[n], regs.regCall[n], regs.wrapTopic[n], elsewhere
		if len(elsewhere) > 0 && !h.Wrapped {
			h.Wrapped, h.Retention = wrappedEverywhere(elsewhere)
		}
		if len(elsewhere) > 0 && h.AtMostOnce == "" && h.Framework == elsewhere[0].Framework {
			h.AtMostOnce = onceEverywhere(elsewhere)
		}
		out = append(out, h)
	}
	hs := make([]Handler, len(out))
	for i, h := range out {
		hs[i] = f.value(h)
	}
	for i := range regs.remote {
		fact := f.graph.Fact(regs.remote[i].Fn)
		if fact == nil {
			fact = f.listed[regs.remote[i].Fn]
		}
		if fact != nil {
			regs.remote[i].Effects, regs.remote[i].TxCompletion = fact.Effects, fact.CompletesInTx
		}
	}
	return Found{Handlers: hs, Remote: regs.remote, Subscribed: regs.subscribed, Used: used, Carriers: carriers}
}

// registeredElsewhere returns where other packages register n's function as a handler
// (registered, from a program-wide link), or nil.
func (f *finder) registeredElsewhere(n *callgraph.Node, registered func(*types.Func) []callgraph.Registration) []callgraph.Registration {
	if registered == nil || n.Fn == nil || n.Lit != nil {
		return nil
	}
	return registered(n.Fn)
}

// wrappedEverywhere reports whether every registration hands the function to the runtime
// middleware (one that does not runs it unprotected), and each with an explicit retention.
func wrappedEverywhere(regs []callgraph.Registration) (wrapped, retention bool) {
	wrapped, retention = true, true
	for _, r := range regs {
		wrapped, retention = wrapped && r.Wrapped, retention && r.Retention
	}
	return wrapped, retention
}

// onceEverywhere returns why the function runs at most once per message when every
// registration says so (each hands it to a wrapper that acknowledges first), or "".
func onceEverywhere(regs []callgraph.Registration) string {
	for _, r := range regs {
		if r.Once == "" {
			return ""
		}
	}
	return regs[0].Once
}

// Found is what Find returns.
type Found struct {
	Handlers []Handler
	Remote   []Remote
	// Subscribed are the functions of other packages the package registers for a topic
	// (Subscriptions).
	Subscribed []Subscription
	// Used are the //idemlint:handler directives that made a handler.
	Used []*directive.Directive
	// Carriers are the channel element types the package's own delivery regions hand
	// deliveries on over (handoff.go), for its CarrierFact.
	Carriers []callgraph.Carrier
}

// shapeOfNode returns the handler shape of a node no registration names, or nil: a literal
// called on the spot and an unexported helper with a handler's signature, called directly,
// have none.
func (f *finder) shapeOfNode(n *callgraph.Node, regs registrations) *model.HandlerShape {
	method := ""
	switch {
	case n.Fn != nil:
		if n.Fn.Signature().Recv() != nil {
			method = n.Fn.Name()
		}
	case n.Lit != nil && !regs.calledLits[n.Lit]:
	default:
		return nil
	}
	if n.Sig == nil {
		return nil
	}
	shape := f.shapeOf(n.Sig, method)
	if shape != nil && method == "" && n.Fn != nil && !n.Fn.Exported() && !f.graph.Referenced[n.Fn] {
		return nil
	}
	return shape
}

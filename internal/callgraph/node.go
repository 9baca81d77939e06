package callgraph

// The graph's vocabulary: a node per function, its sites, the open calls. Every other file
// of the package reads these types, and they read nothing of it.

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/directive"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks"
)

// Node is a function declaration or function literal of the package.
type Node struct {
	Fn     *types.Func // nil for literals
	Decl   *ast.FuncDecl
	Lit    *ast.FuncLit
	Name   string // for messages
	Body   *ast.BlockStmt
	Parent *Node // the enclosing function of a literal: its parameters are in scope
	File   *directive.File
	Sig    *types.Signature // nil when not type-checked

	Sites []Site
	// Calls marks the function-typed parameters the function only calls (Fact.Calls),
	// solved before the sites are resolved: the arguments there enter through the call.
	Calls uint64
	// PerMessage is the mask of the function-typed parameters the function calls only with
	// what a receive in a loop around the call received, in no other way (perMessage): a
	// consumer it starts runs them per message, and a caller's call of it does not.
	PerMessage uint64

	// Directives in the declaration's doc comment.
	Barrier   *directive.Directive   // //idemlint:idempotent
	Ignores   []*directive.Directive // //idemlint:ignore
	Marked    *directive.Directive   // //idemlint:handler
	Decisions *directive.Directive   // //idemlint:decisions
	// completesHere is set when the body calls a transactional completion; TxCompletion
	// when it or a callee does (solved with the effects).
	completesHere bool
	TxCompletion  bool
	// HandlerCall is the framework of a modelled handler call in the body (a webhook
	// signature check), which makes the node a handler.
	HandlerCall string
	// ChecksVia are the calls of functions of other packages that check a webhook (their
	// fact's Checks): an HTTP handler that makes one, or reaches a node that does, is the
	// delivery's handler in their place.
	ChecksVia []Checked
	// Receives are the modelled receive calls in the body (sub.Fetch, reader.FetchMessage):
	// the code after each handles what it received, a handler of its own (Region).
	Receives []Receive

	Effects effect.Set // after the function's own directives: what callers see
	From    map[effect.Kind]Origin
	scope   sinks.Scope
	// gates are the claims checked in the body (builder.gatesOf), read once.
	gates     []*sinks.Gate
	gatesRead bool
	// region, on a node made by Region, is the function it is part of and the span it
	// covers, [from, to): that function's open calls in the span are the region's.
	region   *Node
	from, to token.Pos
}

// Checked is a function of another package that checks a webhook, and the webhook's
// framework.
type Checked struct {
	Fn        *types.Func
	Framework string
}

// Origin says where, in a node's body, the effect of one kind it keeps comes from.
type Origin struct {
	Pos token.Pos // the call (or closure) in the body
	Via *Node     // the callee, when it is in this package
}

// Site is one way effects enter a node: a call to a sink, to a function of this package,
// to a function of another package (its fact), or a closure defined in the body.
type Site struct {
	Pos    token.Pos
	line   int
	callee string // hop name
	sink   *effect.Effect
	local  *Node
	fact   *effect.Fact
	inline bool          // a closure: its effects are the node's own, with no hop
	gates  []*sinks.Gate // the claims checked before the site (or its error), which guard it
	// args are the call's arguments in parameter order (a method expression's receiver
	// dropped); nil for a function value, whose arguments are not in view.
	args []ast.Expr
	// value, on a site routed through a callee that calls its parameter, names the
	// function value passed there, whose effects (local or fact) the site carries.
	value string
	// guard, on a fact site, is the kind a generated chain guard in the call's receiver
	// chain protects (ent's OnConflict before Exec), and guardBy its method name.
	guard   effect.Kind
	guardBy string
	// step marks a site inside a recovery point: a function value or literal handed to a
	// modelled step call (idempotency.Step), whose effects are recorded per step
	// (effect.Effect.Step).
	step effect.StepMode
	// elems, on a site inside a region acting on a slice or map parameter of the node (a
	// range over it, an if that tests it for elements: gates.Collection), is 1 + that
	// parameter's index: the effects it brings are made only on its elements
	// (effect.Effect.ElemsParam). claimed maps the index of an argument that is a local
	// collection filled only under a claim to that claim's gate (collections.go).
	elems   uint8
	claimed map[int]*sinks.Gate
	// regional marks a site inside one of the node's receive regions (Input.ReceiveSpan):
	// its effects are that region's handler's, per message received, and not the node's
	// own, which its callers see (who starts a consumer loop does not handle its messages).
	regional bool
	// tail marks a site that is its node's last act (detached.go), and detached one that
	// starts a goroutine its node leaves behind: the effects it brings are made at most
	// once per delivery; a site that is not a last act gives them back what they were.
	tail, detached bool
	// dropped marks a site whose call's results its node drops (dropped.go): an INSERT
	// a unique key turns away that it brings changes nothing on a repeat.
	dropped bool
	// failure, on a site made only when its node's run has failed (failures.go), is the
	// position of the error test that says so: a Redis INCR it brings counts the failure.
	failure string
	// reportsFailure marks a failure-path site given the error tested there, whose
	// function's name says it reports an error: all it brings is that report.
	reportsFailure bool
	// retriesDelivery marks a failure-path site given the delivery its node received (a
	// modelled delivery type, or a field of one): a publish it brings puts that delivery
	// back for a retry.
	retriesDelivery bool
	// retryAfter, on a site given its node's delivery after `if err == nil { ...; return
	// }`, is the position of that test: a publish it brings is the delivery's retry too.
	retryAfter string
	// dead marks a site a constant answer never lets run (deadbranches.go): it brings
	// nothing.
	dead bool
	// deadLetter marks a site whose call names a dead-letter queue (deadletter.go): a
	// publish it brings sets a failed message aside.
	deadLetter bool
	// readName marks a site whose callee's name says it reads (readnames.go): an HTTP
	// POST it brings reads.
	readName bool
	// leaveFrom and leaveTo, on a site whose call's error makes its node leave
	// (uniqueinserts.go), are the region after that check, to the end of its block: an
	// INSERT the site makes that fails on a repeat claims what runs there.
	leaveFrom, leaveTo token.Pos
}

// sitePositions returns the positions of n's sites: the calls that bring effects, which
// the builder's per-call marks (failures.go, deadletter.go) look at and no other.
func (n *Node) sitePositions() map[token.Pos]bool {
	at := make(map[token.Pos]bool, len(n.Sites))
	for _, s := range n.Sites {
		at[s.Pos] = true
	}
	return at
}

// OpenKind says why a call is open.
type OpenKind uint8

const (
	// OpenInterface: an interface method: implementations may be anywhere in the program.
	OpenInterface OpenKind = iota
	// OpenFuncValue: a call of a function value (a parameter, a field, a variable).
	OpenFuncValue
)

// OpenCall is a call whose targets may lie outside the package.
type OpenCall struct {
	Caller *Node
	Pos    token.Pos
	Kind   OpenKind
	// Method is the interface method called (OpenInterface), and Recv the interface of
	// the receiver expression's static type, whose method set an implementation must have.
	Method *types.Func
	Recv   *types.Interface
	// InView is set when the package's analysis resolved the interface call to something:
	// an implementation of this package, one with effects among its dependencies, a
	// modelled sink, or what a program-wide link found; for a function value, when what it
	// holds is in view (a literal or function the package stores there).
	InView bool
	// Name is the function value called ("run", "c.handle"), for OpenFuncValue.
	Name string
}

// Receive is a modelled receive call in a node's body and the framework of its model.
type Receive struct {
	Call      *ast.CallExpr
	Framework string
	// Read is the modelled receive call that reads the message: Call, or the one in the
	// body of the package's helper Call calls (whose options say whether the message is
	// ever delivered again); nil for a helper of another package.
	Read *ast.CallExpr
}

// readDirectives sets the directive fields of n from its declaration's doc comment; a
// malformed directive applies nowhere (the directives check reports it).
func (n *Node) readDirectives(ds []*directive.Directive) {
	for _, d := range ds {
		if d.Err != "" {
			continue
		}
		switch d.Verb {
		case directive.Idempotent:
			n.Barrier = d
		case directive.Ignore:
			n.Ignores = append(n.Ignores, d)
		case directive.Handler:
			n.Marked = d
		case directive.DecisionsVerb:
			n.Decisions = d
		}
	}
}

// Pos is where n is declared: its name, or the literal.
func (n *Node) Pos() token.Pos {
	switch {
	case n.Decl != nil:
		return n.Decl.Name.Pos()
	case n.Lit != nil:
		return n.Lit.Pos()
	}
	return n.Body.Lbrace
}

// HopName is the name of n on a chain: qualified by its package, as importers see it.
func (n *Node) HopName() string {
	if n.Fn != nil {
		return effect.FuncName(n.Fn, nil)
	}
	return n.Name
}

// Callees returns the nodes of this package n calls or defines (its closures), in source
// order: the edges a caller-side search (who reaches a webhook check) walks backwards.
func (n *Node) Callees() []*Node {
	var out []*Node
	for _, s := range n.Sites {
		if s.local != nil {
			out = append(out, s.local)
		}
	}
	return out
}

// ComparePos orders two positions by file name, then offset: the order of token.Pos values
// across files is the order the loader happened to parse them in, which concurrent parsing
// does not fix, and output sorted by it would change from run to run.
func ComparePos(fset *token.FileSet, a, b token.Pos) int {
	fa, fb := fset.File(a), fset.File(b)
	if fa == nil || fb == nil || fa == fb {
		return cmp.Compare(a, b)
	}
	return cmp.Or(cmp.Compare(fa.Name(), fb.Name()), cmp.Compare(fa.Offset(a), fb.Offset(b)))
}

// callArgs returns a call's arguments in the callee's parameter order: a method expression
// (T.M(recv, x)) passes its receiver first.
func callArgs(info *types.Info, call *ast.CallExpr) []ast.Expr {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodExpr && len(call.Args) > 0 {
			return call.Args[1:]
		}
	}
	if call.Args == nil {
		return []ast.Expr{} // called with no arguments: still a call
	}
	return call.Args
}

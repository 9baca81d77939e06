package handlers

// The finder's state and the values it works on: every file of the package reads these, and
// Find (handlers.go) runs them.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
)

// Input is what Find reads.
type Input struct {
	Pkg    *types.Package
	Info   *types.Info
	Fset   *token.FileSet // for file names: nothing in a _test.go file is a handler
	Files  []*ast.File
	Graph  *callgraph.Graph
	Defs   *defuse.Index
	Models *model.Entries
	// Wrappers are the package's registration wrappers (FindWrappers): their callers'
	// arguments are handlers too.
	Wrappers Wrappers
	// Fields are the package's struct fields its receive loops call with a message
	// (FindWrappers); FieldFact, when set, returns another package's (its FieldFact), or
	// nil: what is stored in either is a handler.
	Fields    Fields
	FieldFact func(*types.Var) *FieldFact
	// TakenOver, when set, reports the functions of the package that check a webhook and
	// that HTTP handlers of other packages call (from a program-wide link): not handlers.
	TakenOver func(*types.Func) bool
	// Registered, when set, returns where other packages of the program register one of
	// this package's functions as a handler, where this package cannot know it is one
	// (from a program-wide link; none: nil): such a function is a handler here.
	Registered func(*types.Func) []callgraph.Registration
	// Table, when set, returns what an imported variable lists (its TableFact), or nil: a
	// range over it registers each function listed.
	Table func(*types.Var) *TableFact
	// Carriers, when set, returns the channel element types the dependencies hand
	// deliveries on over (their CarrierFacts): a receive from such a channel is a receive
	// of a delivery. Called only for a channel of a type of the program, rare enough that
	// the dependencies' facts are read only then.
	Carriers func() []callgraph.Carrier
}

// Wrappers maps the package's functions to the parameters they register, sorted by
// parameter.
type Wrappers map[*types.Func][]effect.ParamReg

// Remote is a function of another package registered here as a handler, with no handler
// shape by which its own package could have known it was one (a Temporal activity, a
// Lambda function). It is reported at the registration, the only place in view.
type Remote struct {
	Fn        *types.Func
	Pos       token.Pos
	Framework string
	Effects   effect.Set // from its fact
	// Wrapped: the registration hands it to the runtime middleware
	// (idemasynq.Handler(mw, asynq.HandlerFunc(h.Send))); Retention: one with an explicit
	// completion retention.
	Wrapped, Retention bool
	// TxCompletion: it stores the job's completion in its database transaction (its fact).
	TxCompletion bool
	// AtMostOnce says why it runs at most once per message (the wrapper it is handed to
	// acknowledges first), or "".
	AtMostOnce string
	// RegCall is the registration when it is a modelled one: the call the fix that wraps
	// it with the runtime middleware edits.
	RegCall *ast.CallExpr
}

// candidate is a node the package's frameworks (or a directive) will run as a handler, while
// Find works; Find hands later stages a Handler made from it.
type candidate struct {
	*callgraph.Node
	Framework string
	Wrapped   bool // handed to idemlint's runtime middleware in this package
	// Retention: the middleware it is handed to has an explicit completion retention
	// (WithRetention, or jobs that report their own): the ttl decision is answered.
	Retention bool
	// Review: the middleware it is handed to is built WithNeedsReview (a failure it
	// chooses marks the key for manual review): the partial decision is answered.
	Review bool
	// Dedup names the in-memory deduplicating middleware of the router it is registered on
	// (Watermill's Deduplicator), or "": its findings say that this is not enforcement.
	Dedup string
	// RegCall is the modelled registration in this package that hands it to its framework
	// (the first one), for the fix that wraps it with the runtime middleware.
	RegCall *ast.CallExpr
	// WrapperTopic is the topic a registration wrapper was given with it (Handler's).
	WrapperTopic *WrapperTopic
	// Elsewhere are its registrations in other packages (Input.Registered).
	Elsewhere []callgraph.Registration
	// AtMostOnce says why nothing delivers its message again, when its own receive loop
	// shows it (acknowledged before it is handled, a stream read only from new entries).
	AtMostOnce string
}

// finder is one search of a package's handlers (Find) or registration wrappers
// (FindWrappers): the pass's inputs and the nodes it made on the way.
type finder struct {
	pkg    *types.Package
	info   *types.Info
	fset   *token.FileSet
	files  []*ast.File
	graph  *callgraph.Graph
	defs   *defuse.Index
	models *model.Entries
	// wrappers: the package's registration wrappers, nil while they are being found.
	wrappers Wrappers
	// extra are nodes made for interface method values handed over (dispatched), not
	// among the graph's nodes, and byPos indexes them by the value's position.
	extra []*callgraph.Node
	byPos map[token.Pos]*callgraph.Node
	// table is Input.Table; listed holds the effects the tables read carry for the
	// functions they list, which their own facts do not bring here (unexported).
	table  func(*types.Var) *TableFact
	listed map[*types.Func]*effect.Fact
	// fields and fieldFact are Input.Fields and Input.FieldFact.
	fields    Fields
	fieldFact func(*types.Var) *FieldFact
	// pulled holds, while wrappers are found, the fields the package calls (a function) or
	// calls a method of (an interface value) with a pulled message (pulledFields).
	pulled Fields
	// pulledIn holds, while wrappers are found, the parameters of the package's functions
	// its receive loops pass a pulled message (pulledParams).
	pulledIn map[*types.Var]pull
	receives map[*ast.CallExpr]pull // receiveCalls, made on first use
	// factories holds, while wrappers are found, the function-typed fields whose call
	// makes a handler handed to a registration (madeBy).
	factories Fields
}

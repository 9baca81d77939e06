// The seam: Judge holds the inputs every stage reads, makes each stage's reader from them,
// and hands on the questions the later stages ask (keys passed to helpers, gates, claims).

package sinks

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/routes"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/sinks/gates"
	"github.com/chokaq/idemlint/internal/sinks/keys"
	"github.com/chokaq/idemlint/internal/sinks/params"
	"github.com/chokaq/idemlint/internal/sinks/requests"
	"github.com/chokaq/idemlint/internal/sinks/statements"
	"github.com/chokaq/idemlint/internal/topics"
)

// Judge reads sink calls of one package. It holds only the inputs every stage reads; each
// question is handed to its stage's reader, made from them.
type Judge struct {
	Defs   *defuse.Index
	Models *model.Entries
	Fset   *token.FileSet
	// UniqueArgs reports whether a River args type declares unique insertion by args in
	// its InsertOpts (in view: the package's and its dependencies' settings); nil: none.
	UniqueArgs func(types.Type) bool
	// UniqueWhileActive reports whether a River args type declares unique insertion by
	// args only while an earlier job is active (a ByState that leaves out completed): the
	// insert stays unprotected, and says so. nil: none known.
	UniqueWhileActive func(types.Type) bool
	// Routes are the routes the program serves (analyzer.Program.Routes); nil outside a
	// program-wide link.
	Routes routes.Table
	// Sent, when set, is told of the requests only a route of the program could show to
	// be safe (requests.Reader.Sent), for the program's summary.
	Sent func(routes.Request)
	// Consumers are the handlers the program runs for its topics
	// (analyzer.Program.Consumers); nil outside a program-wide link.
	Consumers topics.Table
	// Published, when set, is told of every publish to a constant topic that nothing else
	// shows to be safe (toConsumers), for the program's summary.
	Published func(topics.Message)
	// Made says what a function of another package returns for a publish (its
	// topics.Made fact, or the package's own MessageMakers); nil: nothing.
	Made func(*types.Func) *topics.Made
	// Schema is the project's schema, which judges inserts by their tables' unique keys;
	// nil: none is known.
	Schema *schema.Schema
}

// Scope is the function whose body holds the calls being judged (keys.Scope).
type Scope = keys.Scope

// Gate is a claim checked in a function's body (gates.Gate).
type Gate = gates.Gate

// ClaimOf returns what a function's result says of a claim made in its body (gates.ClaimOf).
type ClaimOf = gates.ClaimOf

// KeyProblem says why a key does not identify the job, or that it does (keys.Problem).
type KeyProblem = keys.Problem

// The problems of a key, as keys names them.
const (
	KeyStable     = keys.Stable
	KeyUnstable   = keys.Unstable
	KeyConstant   = keys.Constant
	KeyNotFromJob = keys.NotFromJob
)

func (j *Judge) info() *types.Info { return j.Defs.Info }

func (j *Judge) shortPos(pos token.Pos) string { return effect.ShortPos(j.Fset, pos) }

func (j *Judge) keys() keys.Reader { return keys.Reader{Defs: j.Defs, Models: j.Models} }

func (j *Judge) statements() statements.Reader {
	return statements.Reader{Defs: j.Defs, Models: j.Models, Schema: j.Schema}
}

// statementsIn is statements for the calls of scope sc, whose parameters an insert's key may
// take its values from.
func (j *Judge) statementsIn(sc Scope) statements.Reader {
	rd := j.statements()
	rd.Scope = sc
	return rd
}

func (j *Judge) requests() requests.Reader {
	return requests.Reader{Defs: j.Defs, Models: j.Models, Routes: j.Routes, Sent: j.Sent}
}

func (j *Judge) params() params.Reader { return params.Reader{Defs: j.Defs, Models: j.Models} }

func (j *Judge) gates() gates.Reader {
	return gates.Reader{Defs: j.Defs, Models: j.Models, Fset: j.Fset, Schema: j.Schema}
}

// Unstable reports whether v is assigned from a random or clock source.
func (j *Judge) Unstable(v *types.Var) bool { return j.keys().Unstable(v) }

// PassKey checks, at a call of a function whose effect is keyed by its parameters
// (e.KeyParams), what the caller (scope sc) passes there (keys.Reader.Pass).
func (j *Judge) PassKey(args []ast.Expr, callee string, e effect.Effect, sc Scope) effect.Effect {
	return j.keys().Pass(args, callee, e, sc)
}

// PassOptions checks, at a call of a function that hands its variadic options to an
// enqueue (e.OptsParam), the options the caller passes there (keys.Reader.PassOptions).
func (j *Judge) PassOptions(args []ast.Expr, e effect.Effect, sc Scope) effect.Effect {
	return j.keys().PassOptions(args, e, sc)
}

// PassMethod checks, at a call of a function that sends a request with the method its
// parameter holds (e.MethodParam), what the caller passes there (requests.Reader.PassMethod);
// it reports whether the effect is kept.
func (j *Judge) PassMethod(args []ast.Expr, e effect.Effect, sc Scope) (effect.Effect, bool) {
	return j.requests().PassMethod(args, e, sc)
}

// PassReads checks, at a call of a function whose POST takes its body's GraphQL query or
// JSON-RPC method, the end of its URL (e.ReadsParam) or its whole body (e.PayloadParam)
// from a parameter, what the caller passes there
// (requests.Reader.PassReads); it reports whether the effect is kept. For a publish, the
// parameter is the message's, and the caller's argument says whether it is a status event
// (passStatusEvent).
func (j *Judge) PassReads(args []ast.Expr, e effect.Effect, sc Scope) (effect.Effect, bool) {
	if e.Kind == effect.Publish {
		return j.passStatusEvent(args, e, sc), true
	}
	return j.requests().PassReads(args, e, sc)
}

// PassRequest checks, at a call of a function that sends the request its parameter holds
// (e.RequestParam), the request the caller builds there (requests.Reader.PassRequest); it
// reports whether the effect is kept.
func (j *Judge) PassRequest(args []ast.Expr, e effect.Effect, sc Scope) (effect.Effect, bool) {
	return j.requests().PassRequest(args, e, sc)
}

// ReturnedRequest says what a function's first result is of an HTTP request its body builds,
// judged in its scope sc, or nil (requests.Reader.ReturnedRequest).
func (j *Judge) ReturnedRequest(body *ast.BlockStmt, sig *types.Signature, sc Scope) *effect.Request {
	return j.requests().ReturnedRequest(body, sig, sc)
}

// PassKeyArg decides, at a call of a function whose insert's unique key takes its values
// from its parameters (e.KeyArg), what the caller passes there (statements.Reader.PassKeyArg).
func (j *Judge) PassKeyArg(args []ast.Expr, callee string, e effect.Effect, sc Scope) effect.Effect {
	return j.statements().PassKeyArg(args, callee, e, sc)
}

// PassText judges, at a call of a function that queues the statements its parameter holds
// (e.TextParam), what the caller passes there (statements.Reader.PassText); it reports
// whether the effect is kept.
func (j *Judge) PassText(args []ast.Expr, e effect.Effect, sc Scope) (effect.Effect, bool) {
	return j.statements().PassText(args, e, sc)
}

// Gates returns the gates checked in body (not in nested literals), judged in scope sc; of
// says which functions return a claim (gates.Reader.Gates).
func (j *Judge) Gates(body *ast.BlockStmt, sc Scope, of ClaimOf) []*Gate {
	return j.gates().Gates(body, sc, of)
}

// ParamIndex returns 1 + the index of v among the parameters of sc's declared function, or
// 0 (keys.ParamIndex): the form the effects' parameter questions are recorded in.
func ParamIndex(sc Scope, v *types.Var) int { return keys.ParamIndex(sc, v) }

// Collection is a region of a body that acts on what a collection holds (gates.Collection).
type Collection = gates.Collection

// FillOf says how a function adds to a collection it is given (gates.FillOf).
type FillOf = gates.FillOf

// Collections returns the regions of body that act on a collection's elements
// (gates.Reader.Collections).
func (j *Judge) Collections(body *ast.BlockStmt) []Collection { return j.gates().Collections(body) }

// ClaimedFill returns the claim under which body adds to the collection v, if every
// addition is made under one (gates.Reader.ClaimedFill).
func (j *Judge) ClaimedFill(body *ast.BlockStmt, v *types.Var, local bool, gs []*Gate, of FillOf) (*Gate, bool) {
	return j.gates().ClaimedFill(body, v, local, gs, of)
}

// ReturnedClaim returns what a function's results say of a claim its body makes, or nil
// (gates.Reader.ReturnedClaim).
func (j *Judge) ReturnedClaim(body *ast.BlockStmt, sig *types.Signature, sc Scope, of ClaimOf) *effect.Claim {
	return j.gates().ReturnedClaim(body, sig, sc, of)
}

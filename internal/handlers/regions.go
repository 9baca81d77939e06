package handlers

// Receive regions: a consumer that receives messages itself has no function per message
// but a part of one that handles each (loops.go: after a modelled receive call; channels.go:
// after a receive from a channel of deliveries). The call graph evaluates such a part from
// the function's sites (callgraph.Graph.Region); which part it is, is decided here.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/model"
)

// regions finds the receive regions of the package's functions, the handlers of messages
// received in place. It needs only the graph (to evaluate a region), the syntax and the
// models, not the rest of Find's state: whether a node is part of a registration wrapper is
// asked of the finder (inWrapper).
type regions struct {
	pkg    *types.Package
	graph  *callgraph.Graph
	info   *types.Info
	fset   *token.FileSet
	files  []*ast.File // the package's, for what a receive's package says of redelivery
	defs   *defuse.Index
	models *model.Entries
	// inWrapper reports whether a node is a registration wrapper or a literal inside one:
	// its loop hands each message to the callbacks its callers pass, the handlers.
	inWrapper func(*callgraph.Node) bool
	// handsOn reports whether a region calls a field the package's receive loops hand
	// each message to (Fields): the handlers are what is stored there.
	handsOn func(ast.Node) bool
	// carriers are the channel element types that carry deliveries (handoff.go), by name:
	// the dependencies' (CarrierFact, read from depCarriers on first need) and the
	// package's own.
	carriers    map[string]*model.ReceiveChannel
	carrierOnce map[string]string // why a carrier's readers run at most once, or ""
	depCarriers func() []callgraph.Carrier
}

// ackEnd returns the end of the first statement of list at or after from that acknowledges
// the message (ack_calls: d.Ack, CommitMessages, DeleteMessage, XAck), or token.NoPos. Only
// a statement of the list itself counts, with the call in its expression, assignment, or an
// if's init or condition: an ack in a branch (a Nack on error) does not end the handler, nor
// a deferred one. After the ack a crash no longer redelivers the message, so what follows
// is not repeated by a redelivery.
func (rg *regions) ackEnd(list []ast.Stmt, from token.Pos) token.Pos {
	for _, s := range list {
		if s.Pos() < from {
			continue
		}
		var parts []ast.Node
		switch s := s.(type) {
		case *ast.ExprStmt:
			parts = append(parts, s.X)
		case *ast.AssignStmt:
			for _, r := range s.Rhs {
				parts = append(parts, r)
			}
		case *ast.IfStmt:
			if s.Init != nil {
				parts = append(parts, s.Init)
			}
			parts = append(parts, s.Cond)
		}
		for _, p := range parts {
			if rg.callsAck(p) {
				return s.End()
			}
		}
	}
	return token.NoPos
}

// callsAck reports whether x calls an ack_calls function, outside function literals.
func (rg *regions) callsAck(x ast.Node) bool {
	found := false
	ast.Inspect(x, func(y ast.Node) bool {
		switch y := y.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(rg.info, y).(*types.Func); ok && rg.models.Of(fn.Origin()).Ack {
				found = true
			}
		}
		return !found
	})
	return found
}

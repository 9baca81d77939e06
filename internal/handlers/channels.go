// Channel receives: a consumer that ranges over, or receives from, a channel of deliveries
// (RabbitMQ's Consume returns <-chan amqp.Delivery). Its handler is the code that handles
// one delivery: the body of the range loop, the select case that receives it, or the rest
// of the loop around `d, ok := <-msgs`, each ending at the delivery's acknowledgement.
//
// A delivery is known by the channel's element type (receive_channels' element), not by
// following the channel from the Consume call: the channel is usually handed to a worker
// function, stored in a field, or the deliveries forwarded to a worker pool over a channel
// of their own, and each of those receives handles a delivery all the same. The Consume call
// is followed through the local definitions only to see an auto-acknowledging consumer.

package handlers

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/model"
)

// recvSite is one receive of a delivery in a node's body: where its handler is declared,
// and the part of the body that handles it.
type recvSite struct {
	block    *ast.BlockStmt // declared at its start; its statements are searched for the ack
	from, to token.Pos
	name     string
	rc       *model.ReceiveChannel
}

// channelReceives returns a handler per receive of a delivery in n's body (not in its
// literals, which are nodes of their own).
func (rg *regions) channelReceives(n *callgraph.Node) []candidate {
	var out []candidate
	for _, s := range rg.deliveryReceives(n) {
		to := s.to
		if a := rg.ackEnd(s.block.List, s.from); a != token.NoPos && a < to {
			to = a
		}
		region := rg.graph.Region(n, s.name, s.block, s.from, to)
		if (len(region.Effects) == 0 && (rg.inWrapper(n) || rg.forwards(s.block))) || rg.handsOn(s.block) {
			// A wrapper's loop that hands each delivery to its callback, or a dispatcher that
			// forwards deliveries to workers over a channel: the handlers are elsewhere.
			continue
		}
		out = append(out, candidate{Node: region, Framework: s.rc.Framework, AtMostOnce: rg.carrierOnce[s.rc.Element]})
	}
	return out
}

// deliveryReceives finds the receives of deliveries in n's body.
func (rg *regions) deliveryReceives(n *callgraph.Node) []recvSite {
	if n.Body == nil {
		return nil
	}
	var out []recvSite
	comms := map[ast.Stmt]bool{}
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.RangeStmt:
			if rc := rg.deliveries(x.X); rc != nil {
				out = append(out, recvSite{block: loopBlock(x), from: x.Body.Lbrace, to: x.End(), name: "receive loop in " + n.Name, rc: rc})
			}
		case *ast.CommClause:
			comms[x.Comm] = true
			if rc := rg.deliveries(recvChan(x.Comm)); rc != nil {
				block := &ast.BlockStmt{Lbrace: x.Pos(), List: x.Body, Rbrace: x.End()}
				out = append(out, recvSite{block: block, from: x.Colon, to: x.End(), name: "receive case in " + n.Name, rc: rc})
			}
		case *ast.AssignStmt:
			if comms[x] {
				return true
			}
			if rc := rg.deliveries(recvChan(x)); rc != nil {
				out = append(out, rg.assignSite(n, x, rc))
			}
		}
		return true
	})
	return out
}

// assignSite is the handler of `d, ok := <-msgs` outside a select: the rest of the loop
// around it, or of the function.
func (rg *regions) assignSite(n *callgraph.Node, x *ast.AssignStmt, rc *model.ReceiveChannel) recvSite {
	if loop := innermostLoop(n.Body, x.Pos()); loop != nil {
		return recvSite{block: loopBlock(loop), from: x.End(), to: loop.End(), name: "receive loop in " + n.Name, rc: rc}
	}
	block := &ast.BlockStmt{Lbrace: x.Pos(), List: n.Body.List, Rbrace: n.Body.Rbrace}
	return recvSite{block: block, from: x.End(), to: n.Body.End(), name: "receive in " + n.Name, rc: rc}
}

// recvChan returns the channel a statement receives from (d := <-msgs, d, ok = <-msgs,
// <-msgs), or nil.
func recvChan(s ast.Stmt) ast.Expr {
	var e ast.Expr
	switch s := s.(type) {
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	case *ast.ExprStmt:
		e = s.X
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
		return u.X
	}
	return nil
}

// deliveries returns the model of a channel of deliveries ch, or nil: nil too when the
// channel comes, through local definitions or a field's, from a consume call with its
// auto-acknowledge argument constant true (at most once: nothing is redelivered).
func (rg *regions) deliveries(ch ast.Expr) *model.ReceiveChannel {
	if ch == nil {
		return nil
	}
	rc := rg.deliveryChan(rg.info.TypeOf(ch))
	if rc == nil {
		return nil
	}
	exprs := []ast.Expr{ch}
	if fld := rg.defs.Field(ch); fld != nil {
		exprs = append(exprs, rg.defs.FieldDefs(fld)...)
	}
	for _, e := range exprs {
		if rg.autoAcked(e) {
			return nil
		}
	}
	return rc
}

// autoAcked reports whether e is made from a modelled consume call whose auto-acknowledge
// argument is the constant true.
func (rg *regions) autoAcked(e ast.Expr) bool {
	return e != nil && rg.defs.Find(e, 0, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(rg.info, call).(*types.Func)
		if !ok {
			return false
		}
		rc := rg.models.Of(fn.Origin()).ReceiveChannel
		if rc == nil || rc.AutoAckArg < 0 || rc.AutoAckArg >= len(call.Args) {
			return false
		}
		tv, ok := rg.info.Types[call.Args[rc.AutoAckArg]]
		return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
	})
}

// forwards reports whether block sends a delivery on a channel of deliveries or of a
// carrier (jobs <- d, out <- Message{Body: d.Body, Ack: d.Acknowledger}), itself or
// through a function of the package it calls (q.Push(d)): a dispatcher whose workers,
// receiving from that channel, are the handlers (handoff.go).
func (rg *regions) forwards(block *ast.BlockStmt) bool {
	return rg.sendsDelivery(block, true)
}

// sendsDelivery reports whether x sends on a channel of deliveries or of a carrier, in
// the functions of the package it calls too when deep.
func (rg *regions) sendsDelivery(x ast.Node, deep bool) bool {
	found := false
	ast.Inspect(x, func(y ast.Node) bool {
		switch y := y.(type) {
		case *ast.SendStmt:
			found = rg.deliveryChan(rg.info.TypeOf(y.Chan)) != nil
		case *ast.CallExpr:
			if fn, ok := typeutil.Callee(rg.info, y).(*types.Func); ok && deep {
				if n := rg.graph.ByFunc[fn.Origin()]; n != nil && n.Body != nil {
					found = rg.sendsDelivery(n.Body, false)
				}
			}
		}
		return !found
	})
	return found
}

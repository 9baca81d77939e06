package callgraph

import (
	"go/ast"
	"go/token"
)

// deliveryRecv reports whether e receives from a channel of deliveries (<-msgs, with msgs
// a <-chan amqp.Delivery): the value received is the message a handler handles, like a
// modelled receive call's result.
func (g *Graph) deliveryRecv(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW && g.Models().DeliveryChan(g.in.Info.TypeOf(u.X)) != nil
}

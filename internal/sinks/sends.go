// Sends: a publish that answers a waiting request (the reply subject a received message
// names) is no effect of its own; a send made in a transaction that commits the consumed
// offset is delivered once.

package sinks

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/sinks/params"
)

// producerTxn returns where the producer a send is made on has the consumed offset added to
// its transaction (a txn_offsets call, sarama's AddMessageToTxn, on the same receiver
// expression), or "". A producer got from an accessor without arguments of that receiver
// (franz-go's sess.Client() of a GroupTransactSession) is the same producer. Like the
// request rules, it is flow-insensitive: the call may be anywhere the receiver's variable is
// used.
func (j *Judge) producerTxn(call *ast.CallExpr) string {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	x := sel.X
	if acc, ok := ast.Unparen(x).(*ast.CallExpr); ok && len(acc.Args) == 0 {
		if s, ok := ast.Unparen(acc.Fun).(*ast.SelectorExpr); ok {
			if _, method := j.info().Selections[s]; method {
				x = s.X
			}
		}
	}
	v := j.Defs.RootVar(x)
	if v == nil {
		return ""
	}
	recv := types.ExprString(x)
	for _, c := range j.Defs.CallsOn(v) {
		fn, ok := typeutil.Callee(j.info(), c).(*types.Func)
		if !ok || !j.Models.Of(fn.Origin()).TxnOffset {
			continue
		}
		if cs, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && types.ExprString(cs.X) == recv {
			return fn.Name() + " at " + j.shortPos(c.Pos())
		}
	}
	return ""
}

// replySubject reports whether the destination argument of a send (a subject, or a message
// literal whose Subject field holds it) comes from a reply_subjects field or method,
// directly or through local variables assigned once.
func (j *Judge) replySubject(e ast.Expr) bool {
	reply := false
	j.Defs.Find(e, defuse.Value, func(x ast.Node) bool { // true: decided, as reply says
		switch x := x.(type) {
		case *ast.SelectorExpr:
			reply = j.Models.Index.ReplySubject(params.DeclaredField(j.info(), x))
			return true
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(j.info(), x).(*types.Func)
			reply = ok && j.Models.Of(fn).ReplySubject
			return true
		}
		return false
	}, defuse.Through(func(x ast.Expr) []ast.Expr {
		switch x := x.(type) {
		case *ast.UnaryExpr: // &nats.Msg{Subject: m.Reply}
			return []ast.Expr{x.X}
		case *ast.CompositeLit:
			if subject, ok := defuse.FieldValue(x, "Subject"); ok {
				return []ast.Expr{subject}
			}
		}
		return nil
	}))
	return reply
}

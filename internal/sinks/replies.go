// Replies: a publish to the subject a received message asks its answer on (NATS Msg.Reply)
// answers a waiting request; it is not a publish of the handler's own.

package sinks

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
)

// replySubject reports whether the destination argument of a send (a subject, or a message
// literal whose Subject field holds it) comes from a reply_subjects field or method,
// directly or through local variables assigned once.
func (j *Judge) replySubject(e ast.Expr) bool {
	for depth := 0; e != nil && depth <= defuse.MaxDepth; depth++ {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok { // &nats.Msg{Subject: m.Reply}
			e = ast.Unparen(u.X)
		}
		switch x := e.(type) {
		case *ast.CompositeLit:
			e, _ = defuse.FieldValue(x, "Subject")
			continue
		case *ast.SelectorExpr:
			return j.Models.Index.ReplySubject(j.declaredField(x))
		case *ast.CallExpr:
			fn, ok := typeutil.Callee(j.info(), x).(*types.Func)
			return ok && j.Models.Of(fn).ReplySubject
		case *ast.Ident:
			v, _ := j.info().Uses[x].(*types.Var)
			if v == nil || v.IsField() {
				return false
			}
			e = j.Defs.Def(v)
			continue
		}
		return false
	}
	return false
}

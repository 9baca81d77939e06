// Jobs that drain a backlog by chaining themselves: a River worker that processes a batch
// of what still needs work and, when the batch came back full, inserts a job of its own kind
// to take the next one (if len(ids) == batch { client.Insert(ctx, BackfillArgs{}, nil) }). A
// repeat inserts a second job of the lineage; both take batches of what still needs work,
// and both stop at the first batch that comes back short. The work each does is judged on
// its own; the chained insert adds nothing to it.

package sinks

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/frameworks"
)

// drains returns the detail of a River insert of args (an argument of a call in scope sc)
// that chains the job sc works on: sc is a worker's Work(ctx, job *river.Job[T]), args is of
// type T, and the insert is made inside an if whose condition tests that a batch came back
// full (len(x) == n, len(x) >= n). "" otherwise.
func (j *Judge) drains(args ast.Expr, sc Scope) string {
	if args == nil || sc.Func == nil || sc.Func.Name() != "Work" {
		return ""
	}
	own := jobType(sc.Func)
	if own == nil || !types.Identical(j.info().TypeOf(args), own) {
		return ""
	}
	decl := j.Defs.Decl(sc.Func)
	if decl == nil || decl.Body == nil {
		return ""
	}
	var test *ast.IfStmt
	ast.Inspect(decl.Body, func(x ast.Node) bool {
		if _, lit := x.(*ast.FuncLit); lit {
			return false
		}
		if ifs, ok := x.(*ast.IfStmt); ok && ifs.Body.Pos() <= args.Pos() && args.End() <= ifs.Body.End() && batchFull(ifs.Cond) {
			test = ifs
		}
		return true
	})
	if test == nil {
		return ""
	}
	return "River job of its own kind inserted when its batch came back full (" + j.shortPos(test.Pos()) + "): a second lineage drains the same backlog and stops at its first short batch"
}

// jobType returns T of a River worker's Work(ctx, job *river.Job[T]), or nil.
func jobType(fn *types.Func) types.Type {
	params := fn.Signature().Params()
	if params.Len() != 2 {
		return nil
	}
	ptr, ok := params.At(1).Type().(*types.Pointer)
	if !ok {
		return nil
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.Obj().Pkg() == nil || frameworks.TypeName(named) != frameworks.RiverPath+".Job" || named.TypeArgs().Len() != 1 {
		return nil
	}
	return named.TypeArgs().At(0)
}

// batchFull reports whether cond, or an operand of its &&, tests that a slice came back
// full: len(x) == n or len(x) >= n (either way round).
func batchFull(cond ast.Expr) bool {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch be.Op {
	case token.LAND:
		return batchFull(be.X) || batchFull(be.Y)
	case token.EQL:
		return isLen(be.X) || isLen(be.Y)
	case token.GEQ:
		return isLen(be.X)
	case token.LEQ:
		return isLen(be.Y)
	}
	return false
}

// isLen reports whether e is a call of the builtin len.
func isLen(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return false
	}
	id, ok := ast.Unparen(c.Fun).(*ast.Ident)
	return ok && id.Name == "len"
}

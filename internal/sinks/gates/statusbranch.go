// Status branches: the work done inside an if that runs only while the job's record is not
// yet in the status the branch then writes (if r.Status != StatusSuccess {
// q.UpdateRefundToSuccess(ctx, r.ID); ... }: a call given that status, or a mark call given
// the key whose name names it), or only from the status a mark call then
// leaves (if r.Status == "pending" { MarkProcessing(ctx, r.ID); ... }). It is statusGate's
// check written the other way round: the branch, not the rest of the block, is what a
// redelivery skips once the status is written. A flag set in the branch after the write
// (transitioned = true) carries it to an if that tests the flag after the branch
// (if transitioned && ... { AddPrepaid(ctx, ...) }).

package gates

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// statusBranchGates returns the gates of an if statement whose body runs only while the
// record a lookup by the job's key read is not in the status the body writes: one over
// the body from the write on, and one over the body of each later if in body that tests a
// flag the branch sets after the write. nil otherwise.
func (rd Reader) statusBranchGates(body *ast.BlockStmt, ifs *ast.IfStmt, en env, sc keys.Scope) []*Gate {
	read, op, status, ok := rd.stringComparison(ifs.Cond)
	if !ok {
		return nil
	}
	sel, ok := ast.Unparen(read).(*ast.SelectorExpr)
	if !ok || !rd.lookedUp(sel.X, en, sc) {
		return nil
	}
	branch := ifs.Body
	var written token.Pos
	if op == token.NEQ {
		written = rd.passesConstant(branch, branch.Lbrace, branch.Rbrace, status)
		if written == token.NoPos {
			written = rd.firstCall(branch, branch.Lbrace, branch.Rbrace, func(call *ast.CallExpr) bool {
				return rd.marks(call, sc) && namesStatus(callee(rd.info(), call).Name(), constant.StringVal(status))
			})
		}
	} else {
		written = rd.marksJob(branch, branch.Lbrace, branch.Rbrace, sc)
	}
	if written == token.NoPos {
		return nil
	}
	what := "status branch at " + rd.shortPos(ifs.Pos())
	gates := []*Gate{{Start: written, End: branch.Rbrace, What: what}}
	for _, flag := range rd.flagsSetAfter(branch, written) {
		for _, tested := range rd.flagTests(body, flag, ifs.End()) {
			gates = append(gates, &Gate{Start: tested.Lbrace, End: tested.Rbrace, What: what})
		}
	}
	return gates
}

// lookedUp reports whether x is a local variable whose value in view (en) is the first
// result of a lookup by the job's key (refundOrder, err := store.GetRefundOrder(ctx, id)),
// also when the variable is assigned again later.
func (rd Reader) lookedUp(x ast.Expr, en env, sc keys.Scope) bool {
	call, fn := rd.firstResultIn(x, en)
	return fn != nil && lookupName(fn.Name()) && rd.givenKey(call, sc)
}

// firstResultIn returns the call whose first result the local variable x holds in view
// (en), and its function; nil, nil otherwise.
func (rd Reader) firstResultIn(x ast.Expr, en env) (*ast.CallExpr, *types.Func) {
	v := rd.local(x)
	if v == nil {
		return nil, nil
	}
	d, i := rd.valueOf(v, en)
	call, ok := ast.Unparen(d).(*ast.CallExpr)
	if !ok || i != 0 {
		return nil, nil
	}
	fn := callee(rd.info(), call)
	if fn == nil {
		return nil, nil
	}
	return call, fn
}

// flagsSetAfter returns the local bool variables branch sets to true after pos, and
// nowhere else to true: the flags that say the status was written.
func (rd Reader) flagsSetAfter(branch *ast.BlockStmt, pos token.Pos) []*types.Var {
	var flags []*types.Var
	ast.Inspect(branch, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if x.Pos() < pos || x.Tok != token.ASSIGN || len(x.Lhs) != 1 || len(x.Rhs) != 1 {
				return true
			}
			if v := rd.local(x.Lhs[0]); v != nil && isBool(v.Type()) && isTrue(rd.info(), x.Rhs[0]) && rd.onlyTrueHere(v, x) {
				flags = append(flags, v)
			}
		}
		return true
	})
	return flags
}

// onlyTrueHere reports whether set is the one assignment of true to v in the package:
// its other definitions (the declaration's false) do not say the status was written.
func (rd Reader) onlyTrueHere(v *types.Var, set *ast.AssignStmt) bool {
	for _, d := range rd.Defs.Defs(v) {
		if d != set.Rhs[0] && isTrue(rd.info(), d) {
			return false
		}
	}
	return true
}

// flagTests returns the bodies of the if statements in body after pos whose condition is
// flag, or a conjunction with flag among its operands.
func (rd Reader) flagTests(body *ast.BlockStmt, flag *types.Var, pos token.Pos) []*ast.BlockStmt {
	return ifBodiesAfter(body, pos, func(cond ast.Expr) bool { return rd.requires(cond, flag) })
}

// ifBodiesAfter returns the bodies of the if statements in body (not in literals) from pos
// on whose condition holds test.
func ifBodiesAfter(body *ast.BlockStmt, pos token.Pos, test func(cond ast.Expr) bool) []*ast.BlockStmt {
	var bodies []*ast.BlockStmt
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if x.Pos() >= pos && test(x.Cond) {
				bodies = append(bodies, x.Body)
			}
		}
		return true
	})
	return bodies
}

// requires reports whether cond is true only when flag is: flag itself, or a conjunction
// with it among its operands.
func (rd Reader) requires(cond ast.Expr, flag *types.Var) bool {
	switch c := ast.Unparen(cond).(type) {
	case *ast.Ident:
		return rd.local(c) == flag
	case *ast.BinaryExpr:
		return c.Op == token.LAND && (rd.requires(c.X, flag) || rd.requires(c.Y, flag))
	}
	return false
}

// namesStatus reports whether a mark call's name names the status it writes: the name ends
// in the status's word or words, in any case, underscores and hyphens aside, from the start
// of a word (UpdateRefundOrderToSuccess, "success"; MarkAsCancelled, "CANCELLED";
// SetInProgress, "in_progress"; not MarkUnpaid, "paid").
func namesStatus(name, status string) bool {
	s := strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(status))
	if s == "" || len(s) > len(name) || !strings.EqualFold(name[len(name)-len(s):], s) {
		return false
	}
	c := name[len(name)-len(s)]
	return c >= 'A' && c <= 'Z' || len(s) == len(name)
}

// isTrue reports whether e is the constant true.
func isTrue(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
}

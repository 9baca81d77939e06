// Set-difference writes: what the code writes is what a lookup by the job's key did not
// find. A loop that skips the elements the lookup returned (for _, t := range tags { if
// slices.Contains(existing, t) { continue }; create(t) }), and a write of the difference
// between what is wanted and what is stored (toAdd := difference(tags, current); if
// len(toAdd) > 0 { link(toAdd) }), find nothing left to write on a redelivery.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// containsGate returns the gate of `if slices.Contains(existing, x) { continue }` in a loop,
// existing the result of a lookup by the job's key (a lookupVerbs call, List... too): the
// rest of the loop body writes only the elements not stored yet. nil otherwise.
func (rd Reader) containsGate(ifs *ast.IfStmt, end token.Pos, sc keys.Scope) *Gate {
	call, ok := ast.Unparen(ifs.Cond).(*ast.CallExpr)
	if !ok || len(call.Args) != 2 || !isBranch(ifs.Body.List[len(ifs.Body.List)-1], token.CONTINUE) {
		return nil
	}
	fn := callee(rd.info(), call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "slices" || fn.Name() != "Contains" {
		return nil
	}
	lookup := rd.storedBy(call.Args[0], sc)
	if lookup == nil {
		return nil
	}
	return &Gate{Start: ifs.End(), End: end, What: "set difference against " + callee(rd.info(), lookup).Name() + " at " + rd.shortPos(lookup.Pos())}
}

// differenceGate returns the gate of `if len(toAdd) > 0 { ... }`, toAdd the result of a
// set-difference function (its name says so: difference, diff, missing, subtract, except)
// given the result of a lookup by the job's key: the body writes only what is not stored
// yet. The gate covers the body; nil otherwise.
func (rd Reader) differenceGate(ifs *ast.IfStmt, sc keys.Scope) *Gate {
	be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.GTR && be.Op != token.NEQ {
		return nil
	}
	x := rd.lenOf(be.X)
	if x == nil || !rd.isZero(be.Y) {
		return nil
	}
	diff, fn := rd.resultOf(x)
	if diff == nil || !differenceName(fn.Name()) {
		return nil
	}
	for _, a := range diff.Args {
		if lookup := rd.storedBy(a, sc); lookup != nil {
			return &Gate{Start: ifs.Body.Lbrace, End: ifs.Body.Rbrace, What: "set difference against " + callee(rd.info(), lookup).Name() + " at " + rd.shortPos(lookup.Pos())}
		}
	}
	return nil
}

// storedBy returns the lookup by the job's key whose first result e (a local variable) is,
// or nil: what is stored, that a set difference leaves out.
func (rd Reader) storedBy(e ast.Expr, sc keys.Scope) *ast.CallExpr {
	call, fn := rd.resultOf(e)
	if call == nil || !(lookupName(fn.Name()) || startsWithWord(fn.Name(), []string{"List"})) || !rd.givenKey(call, sc) {
		return nil
	}
	if _, ok := fn.Signature().Results().At(0).Type().Underlying().(*types.Slice); !ok {
		return nil
	}
	return call
}

// differenceName reports whether a function's name says it computes a set difference.
func differenceName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"difference", "diff", "missing", "subtract", "except"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// lenOf returns the argument of e when e is a call of the builtin len, or nil.
func (rd Reader) lenOf(e ast.Expr) ast.Expr {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !rd.isBuiltin(call, "len") {
		return nil
	}
	return call.Args[0]
}

// isBranch reports whether st is a branch statement of kind tok (continue, break).
func isBranch(st ast.Stmt, tok token.Token) bool {
	b, ok := st.(*ast.BranchStmt)
	return ok && b.Tok == tok && b.Label == nil
}

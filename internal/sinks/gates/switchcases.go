// Switch cases that leave: `switch r.Status { case StatusDone, StatusFailed: return nil }`
// checks the value as `if r.Status == StatusDone { return nil }` would, once per value.
// The gate readers read if statements; a case clause that leaves stands for such an if,
// whose body ends where the switch does, so that what it guards starts after the switch.

package gates

import (
	"go/ast"
	"go/token"
)

// caseChecks returns the if statements the leaving case clauses of sw stand for: one per
// value of a clause whose body ends in a return (or a continue: a break only leaves the
// switch), testing the switch's tag against the value. nil for a switch with no tag.
func caseChecks(sw *ast.SwitchStmt) []*ast.IfStmt {
	if sw.Tag == nil {
		return nil
	}
	var ifs []*ast.IfStmt
	for _, st := range sw.Body.List {
		cc, ok := st.(*ast.CaseClause)
		if !ok || len(cc.Body) == 0 || !leavesCase(cc.Body[len(cc.Body)-1]) {
			continue
		}
		for _, v := range cc.List {
			ifs = append(ifs, &ast.IfStmt{
				If:   cc.Case,
				Cond: &ast.BinaryExpr{X: sw.Tag, OpPos: v.Pos(), Op: token.EQL, Y: v},
				Body: &ast.BlockStmt{Lbrace: cc.Colon, List: cc.Body, Rbrace: sw.Body.Rbrace - 1},
			})
		}
	}
	return ifs
}

// leavesCase reports whether a case clause's last statement leaves the function or the
// loop around the switch.
func leavesCase(st ast.Stmt) bool {
	switch st := st.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return st.Tok == token.CONTINUE
	}
	return false
}

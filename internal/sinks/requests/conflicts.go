// Creates whose conflict answer is taken as done. An API that keys a create by what the
// request names (an experiment's name, a record's natural key) refuses a repeat with a
// conflict: 409 Conflict, or a message that the thing already exists. A function that
// sends the request and then goes on when that is the answer (`if strings.Contains(msg,
// "already exists") { log.Debug(...) } else { return err }`, `if resp.StatusCode ==
// http.StatusConflict { return nil }`) makes the repeat change nothing, as the
// unique-constraint pattern does with a duplicate-key error.

package requests

import (
	"go/ast"
	"go/constant"
	"go/token"
	"net/http"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
)

// ConflictDone returns where the function body (the one holding call) takes an API's
// conflict answer as done after call: the position of an if (or switch case) whose
// condition compares with the status 409 or tests for text saying that something already
// exists (strings.Contains, strings.HasPrefix, ==), and whose branch for it returns no
// error; "" otherwise. A branch that returns an error (the conflict reported) takes
// nothing as done.
func (rd Reader) ConflictDone(call *ast.CallExpr, body *ast.BlockStmt, shortPos func(token.Pos) string) string {
	if body == nil {
		return ""
	}
	at := token.NoPos
	ast.Inspect(body, func(x ast.Node) bool {
		if at != token.NoPos {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IfStmt:
			if x.Pos() > call.End() && rd.conflictTest(x.Cond) && !defuse.ReturnsError(rd.info(), x.Body) {
				at = x.Pos()
			}
		case *ast.CaseClause:
			if x.Pos() > call.End() && !defuse.ReturnsError(rd.info(), &ast.BlockStmt{List: x.Body}) {
				for _, e := range x.List {
					if rd.conflictValue(e) {
						at = x.Pos()
					}
				}
			}
		}
		return true
	})
	if at == token.NoPos {
		return ""
	}
	return shortPos(at)
}

// conflictTest reports whether cond is true on a conflict answer: x == 409 (either side),
// a call of strings.Contains, HasPrefix or EqualFold, or an ==, given text that says
// something already exists; also one operand of an || that is.
func (rd Reader) conflictTest(cond ast.Expr) bool {
	switch c := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LOR:
			return rd.conflictTest(c.X) || rd.conflictTest(c.Y)
		case token.EQL:
			return rd.conflictValue(c.X) || rd.conflictValue(c.Y)
		}
	case *ast.CallExpr:
		switch bodyFunc(rd.info(), c) {
		case "strings.Contains", "strings.HasPrefix", "strings.EqualFold":
			for _, a := range c.Args {
				if rd.conflictValue(a) {
					return true
				}
			}
		}
	}
	return false
}

// conflictValue reports whether e is the constant 409 (http.StatusConflict) or text that
// says something already exists ("Experiment name already exists", "An entry for this
// record already exists!").
func (rd Reader) conflictValue(e ast.Expr) bool {
	tv, ok := rd.info().Types[e]
	if !ok || tv.Value == nil {
		return false
	}
	switch tv.Value.Kind() {
	case constant.Int:
		n, exact := constant.Int64Val(tv.Value)
		return exact && n == http.StatusConflict
	case constant.String:
		return strings.Contains(strings.ToLower(constant.StringVal(tv.Value)), "already exist")
	}
	return false
}

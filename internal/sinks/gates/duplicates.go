// Duplicates taken as done: an INSERT whose unique-violation error the caller takes as
// success (PostgreSQL's 23505, MySQL's 1062, a repository's ErrDuplicate) is the
// unique-constraint pattern: a repeat finds the row and stops there.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
)

// duplicateCheck returns the gate of an if statement that tests a call's error for a
// duplicate key and does not hand that error on; nil otherwise.
func (rd Reader) duplicateCheck(ifs *ast.IfStmt, en env) *Gate {
	// if err != nil && !errors.Is(err, ErrDuplicate) { return err }: the duplicate skips
	// the body, whatever it returns.
	errExpr := rd.skippedByDuplicate(ifs.Cond)
	if errExpr == nil {
		errExpr = rd.duplicateTest(ifs.Cond)
		if errExpr == nil || defuse.ReturnsError(rd.info(), ifs.Body) {
			return nil
		}
	}
	x, _ := rd.resolve(errExpr, en)
	// The error field of a call's result is that call's error (GORM: db.Create(&v).Error).
	if sel, ok := x.(*ast.SelectorExpr); ok && types.Identical(rd.info().TypeOf(sel), types.Universe.Lookup("error").Type()) {
		x = ast.Unparen(sel.X)
	}
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return nil
	}
	return &Gate{Start: call.Pos(), End: call.Pos() + 1, Duplicate: true,
		What: "duplicate key taken as done at " + rd.shortPos(ifs.Pos())}
}

// skippedByDuplicate returns the error whose unique violation makes cond false: !dup, or
// a conjunction with !dup among its operands.
func (rd Reader) skippedByDuplicate(cond ast.Expr) ast.Expr {
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr:
		if c.Op == token.NOT {
			return rd.duplicateTest(c.X)
		}
	case *ast.BinaryExpr:
		if c.Op == token.LAND {
			if e := rd.skippedByDuplicate(c.X); e != nil {
				return e
			}
			return rd.skippedByDuplicate(c.Y)
		}
	}
	return nil
}

// duplicateTest returns the error a condition tests for a unique violation, or nil:
// errors.Is(err, ErrDuplicate), strings.Contains(err.Error(), "duplicate key"),
// pgErr.Code == "23505" (pgErr filled by errors.As(err, &pgErr) or asserted from err),
// myErr.Number == 1062, isUniqueViolation(err).
func (rd Reader) duplicateTest(cond ast.Expr) ast.Expr {
	switch c := ast.Unparen(cond).(type) {
	case *ast.BinaryExpr:
		switch c.Op {
		case token.LAND, token.LOR:
			if e := rd.duplicateTest(c.X); e != nil {
				return e
			}
			return rd.duplicateTest(c.Y)
		case token.EQL:
			if e := rd.duplicateCode(c.X, c.Y); e != nil {
				return e
			}
			return rd.duplicateCode(c.Y, c.X)
		}
	case *ast.CallExpr:
		return rd.duplicateCall(c)
	}
	return nil
}

// duplicateCall reads errors.Is(err, ErrDuplicate), strings.Contains(err.Error(), "duplicate
// key") and a predicate named for duplicates given the error.
func (rd Reader) duplicateCall(c *ast.CallExpr) ast.Expr {
	fn, ok := typeutil.Callee(rd.info(), c).(*types.Func)
	if !ok || len(c.Args) == 0 {
		return nil
	}
	switch fn.FullName() {
	case "errors.Is":
		if len(c.Args) == 2 && duplicateName(lastName(c.Args[1])) {
			return c.Args[0]
		}
		return nil
	case "strings.Contains":
		msg := strings.ToLower(rd.Defs.ConstString(defuse1(c, 1)))
		if msg == "" || !(strings.Contains(msg, "duplicate") || strings.Contains(msg, "unique constraint") || strings.Contains(msg, "already exists")) {
			return nil
		}
		if m, ok := ast.Unparen(c.Args[0]).(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(m.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Error" && len(m.Args) == 0 {
				return sel.X
			}
		}
		return nil
	}
	if duplicateName(fn.Name()) && len(c.Args) == 1 && isError(rd.info().TypeOf(c.Args[0])) {
		return c.Args[0]
	}
	return nil
}

// duplicateCode reads p.Code == "23505" (or pgerrcode.UniqueViolation) and p.Number ==
// 1062, returning the error p was read from; and a helper's code of an error compared to
// either (ErrorCode(err) == UniqueViolation, the helper doing the errors.As), returning
// the error it is given.
func (rd Reader) duplicateCode(field, value ast.Expr) ast.Expr {
	if c, ok := ast.Unparen(field).(*ast.CallExpr); ok {
		if len(c.Args) != 1 || !isError(rd.info().TypeOf(c.Args[0])) {
			return nil
		}
		if n, ok := rd.Defs.ConstInt(value); rd.Defs.ConstString(value) == "23505" || ok && n == 1062 {
			return c.Args[0]
		}
		return nil
	}
	sel, ok := ast.Unparen(field).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	switch sel.Sel.Name {
	case "Code", "SQLState":
		if rd.Defs.ConstString(value) != "23505" {
			return nil
		}
	case "Number":
		if n, ok := rd.Defs.ConstInt(value); !ok || n != 1062 {
			return nil
		}
	default:
		return nil
	}
	p := rd.local(sel.X)
	if p == nil {
		return nil
	}
	for _, c := range rd.Defs.Fills(p) {
		if fn, ok := typeutil.Callee(rd.info(), c).(*types.Func); ok && fn.FullName() == "errors.As" && len(c.Args) == 2 {
			return c.Args[0]
		}
	}
	if ta, ok := ast.Unparen(rd.Defs.Def(p)).(*ast.TypeAssertExpr); ok {
		return ta.X
	}
	return nil
}

func defuse1(c *ast.CallExpr, i int) ast.Expr {
	if i < len(c.Args) {
		return c.Args[i]
	}
	return nil
}

// duplicateName reports whether a name says "duplicate key": ErrDuplicate,
// ErrAlreadyExists, isUniqueViolation, IsDuplicateKey.
func duplicateName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "duplicate") || strings.Contains(n, "uniqueviolation") ||
		strings.Contains(n, "alreadyexists") || strings.Contains(n, "uniqueconstraint")
}

func lastName(e ast.Expr) string {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return x.Sel.Name
	}
	return ""
}

func isError(t types.Type) bool {
	return t != nil && types.Identical(t, types.Universe.Lookup("error").Type())
}

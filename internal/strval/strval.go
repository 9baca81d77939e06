// Package strval reconstructs, as far as the compiler knows it, the text of a string
// expression: constants folded by go/types, concatenations, fmt.Sprintf with a constant
// format, and local variables assigned exactly once. Parts that are only known at run time
// become a Hole, so a classifier can still read the rest ("INSERT INTO " + table + " ...").
package strval

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// Hole marks text not known at compile time.
const Hole = sqlstmt.Hole

// Defs gives the single expression assigned to a local variable, or nil when the variable
// is assigned more than once or not in view.
type Defs func(*types.Var) ast.Expr

// maxDepth bounds how many variables deep the reconstruction follows, so that a chain of
// assignments (or a cycle through them) cannot make it expensive.
const maxDepth = 8

// Text returns the text of e with Hole where parts are unknown.
func Text(info *types.Info, e ast.Expr, defs Defs) string {
	var b strings.Builder
	write(&b, info, e, defs, 0)
	return b.String()
}

func write(b *strings.Builder, info *types.Info, e ast.Expr, defs Defs, depth int) {
	if tv, ok := info.Types[e]; ok && tv.Value != nil {
		switch tv.Value.Kind() {
		case constant.String:
			b.WriteString(constant.StringVal(tv.Value))
			return
		case constant.Int, constant.Float, constant.Bool:
			b.WriteString(tv.Value.ExactString())
			return
		}
	}
	if depth > maxDepth {
		b.WriteString(Hole)
		return
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		write(b, info, e.X, defs, depth)
		return
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			write(b, info, e.X, defs, depth)
			write(b, info, e.Y, defs, depth)
			return
		}
	case *ast.Ident:
		if v, ok := info.Uses[e].(*types.Var); ok && defs != nil {
			if d := defs(v); d != nil {
				write(b, info, d, defs, depth+1)
				return
			}
		}
	case *ast.CallExpr:
		if fn, ok := typeutil.Callee(info, e).(*types.Func); ok && fn.FullName() == "fmt.Sprintf" && len(e.Args) > 0 {
			sprintf(b, info, e, defs, depth)
			return
		}
	}
	b.WriteString(Hole)
}

// sprintf expands the format of a fmt.Sprintf call: string operands of %s, %v and %q that
// are known are spliced in, other verbs become holes.
func sprintf(b *strings.Builder, info *types.Info, call *ast.CallExpr, defs Defs, depth int) {
	var fb strings.Builder
	write(&fb, info, call.Args[0], defs, depth+1)
	format := fb.String()
	args := call.Args[1:]
	argi := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		// Skip flags, width, precision and explicit indexes up to the verb.
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.[]*", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			b.WriteString(Hole)
			return
		}
		verb := format[j]
		if argi < len(args) && (verb == 's' || verb == 'v' || verb == 'd') && j == i+1 {
			write(b, info, args[argi], defs, depth+1)
		} else {
			b.WriteString(Hole)
		}
		argi++
		i = j
	}
}

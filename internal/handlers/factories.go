// Factories and middleware: functions that return a handler. A factory's literal is the
// handler it builds (one handler, not two); middleware's literal wraps the handlers it is
// given and is none itself; code of a _test.go file runs in tests, not in a queue.

package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/callgraph"
)

// notHandler reports whether a node is never a handler, whatever its shape or registration
// says: it is declared in a _test.go file, or it is a literal returned by middleware.
func (f *finder) notHandler(n *callgraph.Node) bool {
	if f.inTestFile(n) {
		return true
	}
	return n.Lit != nil && n.Parent != nil && isMiddleware(n.Parent) && f.returns(n.Parent, n.Lit)
}

// inTestFile reports whether the node is declared in a _test.go file: tests register fakes
// and call handlers, and no queue runs them.
func (f *finder) inTestFile(n *callgraph.Node) bool {
	return n.Body != nil && f.inTest(n.Body.Pos())
}

// inTest reports whether pos is in a _test.go file.
func (f *finder) inTest(pos token.Pos) bool {
	return f.fset != nil && strings.HasSuffix(f.fset.Position(pos).Filename, "_test.go")
}

// isMiddleware reports whether a function has middleware's shape: it returns a value of a
// type it is also given (func(h message.HandlerFunc) message.HandlerFunc,
// func(asynq.Handler) asynq.Handler), so what it returns wraps what it was given.
func isMiddleware(n *callgraph.Node) bool {
	if n.Sig == nil {
		return false
	}
	for i := 0; i < n.Sig.Results().Len(); i++ {
		r := n.Sig.Results().At(i).Type()
		for j := 0; j < n.Sig.Params().Len(); j++ {
			if types.Identical(r, n.Sig.Params().At(j).Type()) {
				return true
			}
		}
	}
	return false
}

// returnedLits returns the nodes of the function literals a function returns: directly or
// converted to a function type (return asynq.HandlerFunc(func(...) error {...})), in its
// own return statements (not those of literals nested in it).
func (f *finder) returnedLits(n *callgraph.Node) []*callgraph.Node {
	var out []*callgraph.Node
	f.eachReturned(n, func(lit *ast.FuncLit) {
		if ln := f.graph.ByLit[lit]; ln != nil {
			out = append(out, ln)
		}
	})
	return out
}

// returns reports whether n returns the literal lit.
func (f *finder) returns(n *callgraph.Node, lit *ast.FuncLit) bool {
	found := false
	f.eachReturned(n, func(l *ast.FuncLit) { found = found || l == lit })
	return found
}

// eachReturned calls yield with each function literal n's own return statements return.
func (f *finder) eachReturned(n *callgraph.Node, yield func(*ast.FuncLit)) {
	if n.Body == nil {
		return
	}
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false // its returns are its own
		case *ast.ReturnStmt:
			for _, r := range x.Results {
				if lit := f.litOf(r); lit != nil {
					yield(lit)
				}
			}
		}
		return true
	})
}

// litOf returns the function literal an expression is, through parentheses and conversions
// to a function type, or nil.
func (f *finder) litOf(e ast.Expr) *ast.FuncLit {
	for {
		e = ast.Unparen(e)
		if lit, ok := e.(*ast.FuncLit); ok {
			return lit
		}
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return nil
		}
		if tv, ok := f.info.Types[call.Fun]; !ok || !tv.IsType() {
			return nil
		}
		e = call.Args[0]
	}
}

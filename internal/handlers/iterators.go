// Message iterators: a received batch may hand its messages to a callback rather than be
// ranged over (franz-go's fetches.EachRecord(func(r *kgo.Record) { f(ctx, r) })). The
// callback's parameters then carry what the pull returned, as a range variable would: a
// consumer loop that calls its own callback parameter with one is a registration wrapper.

package handlers

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// iteratorParams returns, for the function literals among the enclosing nodes in stack that
// are handed to a modelled message iterator (MessageIterators), each of their parameters
// mapped to the iterator call's receiver: the batch whose messages it receives.
func (f *finder) iteratorParams(stack []ast.Node) map[*types.Var]ast.Expr {
	var via map[*types.Var]ast.Expr
	for i := 1; i < len(stack); i++ {
		lit, ok := stack[i].(*ast.FuncLit)
		if !ok {
			continue
		}
		call, ok := stack[i-1].(*ast.CallExpr)
		if !ok {
			continue
		}
		recv := f.iteratorReceiver(call, lit)
		if recv == nil {
			continue
		}
		for _, field := range lit.Type.Params.List {
			for _, name := range field.Names {
				if v, ok := f.info.Defs[name].(*types.Var); ok {
					if via == nil {
						via = map[*types.Var]ast.Expr{}
					}
					via[v] = recv
				}
			}
		}
	}
	return via
}

// iteratorReceiver returns the receiver of call when call is a modelled message iterator
// and lit one of its arguments, else nil.
func (f *finder) iteratorReceiver(call *ast.CallExpr, lit *ast.FuncLit) ast.Expr {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	fn, ok := typeutil.Callee(f.info, call).(*types.Func)
	if !ok || !f.models.Of(fn.Origin()).Iterator {
		return nil
	}
	for _, a := range call.Args {
		if ast.Unparen(a) == lit {
			return sel.X
		}
	}
	return nil
}

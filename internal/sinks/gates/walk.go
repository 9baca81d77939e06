// The walk over a body's statements with the blocks around each, and the values a condition
// reads as they were assigned just before it.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
)

// gateWalk visits each statement of a body (not of nested literals, which are functions of
// their own) with the statement lists that enclose it.
type gateWalk struct {
	visit func(st ast.Stmt, en env)
	stack []envBlock
}

func (w *gateWalk) block(list []ast.Stmt, end token.Pos) {
	w.stack = append(w.stack, envBlock{list: list, end: end})
	top := len(w.stack) - 1
	for i, st := range list {
		w.stack[top].idx = i
		// The visit reads the stack at once and keeps none of it: no copy.
		w.visit(st, env{blocks: w.stack, end: end})
		w.nested(st)
	}
	w.stack = w.stack[:top]
}

// nested visits the blocks inside st, not inside function literals.
func (w *gateWalk) nested(st ast.Stmt) {
	ast.Inspect(st, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			w.block(x.List, x.Rbrace)
			return false
		case *ast.CaseClause:
			w.block(x.Body, x.End())
			return false
		case *ast.CommClause:
			w.block(x.Body, x.End())
			return false
		}
		return true
	})
}

// env is where a condition is read: the statement lists that enclose it, innermost last,
// each with the index of the statement that holds the condition, and the if's own init.
type env struct {
	blocks []envBlock
	init   ast.Stmt
	end    token.Pos // the end of the innermost block
}

type envBlock struct {
	list []ast.Stmt
	idx  int
	end  token.Pos
}

// guardedEnd returns where a gate checked at en stops guarding: the end of its block, or,
// when that block is the body of an if with no else that only tests that a value is there
// (if msg.MessageId != "" { if seen { return } }), the end of the block around that if, and
// so on outwards. Such an if dedupes the deliveries that carry a key; one without a key
// has nothing to be deduplicated by, so what follows the if is guarded as far as it can be.
func (rd Reader) guardedEnd(en env) token.Pos {
	end := en.end
	for b := len(en.blocks) - 1; b > 0; b-- {
		outer := en.blocks[b-1]
		ifs, ok := outer.list[outer.idx].(*ast.IfStmt)
		inner := en.blocks[b].list
		if !ok || ifs.Else != nil || len(inner) == 0 || len(ifs.Body.List) == 0 || &ifs.Body.List[0] != &inner[0] || !rd.presenceTest(ifs.Cond) {
			break
		}
		end = outer.end
	}
	return end
}

// presenceTest reports whether cond only tests that a value is there: x != "", x != nil,
// x != 0, len(x) > 0.
func (rd Reader) presenceTest(cond ast.Expr) bool {
	c, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return false
	}
	zero := func(e ast.Expr) bool { return rd.isNil(e) || rd.isZero(e) || rd.Defs.IsEmptyString(e) }
	switch c.Op {
	case token.NEQ:
		return zero(c.Y) || zero(c.X)
	case token.GTR:
		return rd.lenOf(c.X) != nil && rd.isZero(c.Y)
	}
	return false
}

// valueOf returns the expression last assigned to v before the condition, and which of
// its results v is: the if's init, then the statements before it in each enclosing block,
// innermost first; else v's single definition anywhere.
func (rd Reader) valueOf(v *types.Var, en env) (ast.Expr, int) {
	if en.init != nil {
		if e, i, ok := rd.assignedIn(en.init, v); ok {
			return e, i
		}
	}
	for b := len(en.blocks) - 1; b >= 0; b-- {
		blk := en.blocks[b]
		if b < len(en.blocks)-1 && blk.idx < len(blk.list) {
			// The statement holding the inner block: its init is in view there (the err
			// of `if _, err := u.Save(ctx); err != nil { if ent.IsNotFound(err) {...} }`).
			if ifs, ok := blk.list[blk.idx].(*ast.IfStmt); ok && ifs.Init != nil {
				if e, i, ok := rd.assignedIn(ifs.Init, v); ok {
					return e, i
				}
			}
		}
		for k := blk.idx - 1; k >= 0; k-- {
			if e, i, ok := rd.assignedIn(blk.list[k], v); ok {
				return e, i
			}
		}
	}
	return rd.Defs.Def(v), 0
}

// assignedIn reports whether st assigns v, and what: the expression and v's result index.
func (rd Reader) assignedIn(st ast.Stmt, v *types.Var) (ast.Expr, int, bool) {
	as, ok := st.(*ast.AssignStmt)
	if !ok {
		return nil, 0, false
	}
	for i, l := range as.Lhs {
		id, ok := ast.Unparen(l).(*ast.Ident)
		if !ok || rd.info().ObjectOf(id) != v {
			continue
		}
		switch {
		case len(as.Lhs) == len(as.Rhs):
			return as.Rhs[i], 0, true
		case len(as.Rhs) == 1:
			return as.Rhs[0], i, true
		}
		return nil, 0, true
	}
	return nil, 0, false
}

// local returns the local variable e names, or nil.
func (rd Reader) local(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := rd.info().Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	return v
}

// resolve follows a local variable to what it was last assigned before the condition
// (defuse.Find, At the assignment in view); other expressions are returned as they are,
// with result index 0. For a variable that is a later result of a call (n, err := f()),
// it returns the call and the variable's index among the results.
func (rd Reader) resolve(e ast.Expr, en env) (ast.Expr, int) {
	var out ast.Expr
	idx := 0 // the result index of the definition last taken (At)
	at := func(v *types.Var) ast.Expr {
		d, i := rd.valueOf(v, en)
		idx = i
		return d
	}
	found := rd.Defs.Find(e, defuse.Value, func(x ast.Node) bool {
		if idx != 0 || rd.local(x.(ast.Expr)) == nil {
			out = x.(ast.Expr)
			return true
		}
		return false
	}, defuse.At(at))
	if !found {
		return nil, 0
	}
	return out, idx
}

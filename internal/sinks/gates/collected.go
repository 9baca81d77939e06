// Collections filled under a claim: a loop claims keys one by one and collects those it
// claimed (fresh = append(fresh, id) after `if !ok { continue }`), then acts on what it
// collected (if len(fresh) > 0 { notify(fresh) }; for _, d := range pending { send(d) }),
// in the same function or in one the collection is handed to. A redelivery claims nothing,
// collects nothing and acts on nothing: the effect runs once per claimed key, as one made
// after `if !ok { return }` does.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/defuse"
)

// Collection is a region of a body that acts on what a collection holds: the body of a
// range loop over it, or of an if that runs when it is not empty.
type Collection struct {
	Var        *types.Var // a local variable or parameter of slice or map type
	Start, End token.Pos
}

// Collections returns the regions of body (not of nested literals) that act on the
// elements of a slice or map variable: `for ... range v { ... }`, `if len(v) > 0 { ... }`
// (also as a term of a conjunction: `len(v) > 0 && s.notify != nil`), and what follows
// `if len(v) == 0 { return }` in its block.
func (rd Reader) Collections(body *ast.BlockStmt) []Collection {
	var out []Collection
	w := gateWalk{visit: func(st ast.Stmt, en env) {
		switch x := st.(type) {
		case *ast.RangeStmt:
			if v := rd.collectionVar(x.X); v != nil {
				out = append(out, Collection{Var: v, Start: x.Body.Lbrace, End: x.Body.Rbrace})
			}
		case *ast.IfStmt:
			if v := rd.nonEmptyTest(x.Cond); v != nil {
				out = append(out, Collection{Var: v, Start: x.Body.Lbrace, End: x.Body.Rbrace})
			}
			if v := rd.emptyTest(x.Cond); v != nil && x.Else == nil && len(x.Body.List) > 0 && defuse.EndsBlock(x.Body.List[len(x.Body.List)-1]) {
				out = append(out, Collection{Var: v, Start: x.End(), End: en.end})
			}
		}
	}}
	w.block(body.List, body.Rbrace)
	return out
}

// emptyTest returns the collection cond tests for no elements: len(v) == 0, 0 == len(v),
// len(v) < 1; nil otherwise.
func (rd Reader) emptyTest(cond ast.Expr) *types.Var {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	switch {
	case be.Op == token.EQL && rd.isZero(be.Y):
		return rd.collectionVar(rd.lenOf(be.X))
	case be.Op == token.EQL && rd.isZero(be.X):
		return rd.collectionVar(rd.lenOf(be.Y))
	case be.Op == token.LSS:
		if n, ok := rd.Defs.ConstInt(be.Y); ok && n == 1 {
			return rd.collectionVar(rd.lenOf(be.X))
		}
	}
	return nil
}

// nonEmptyTest returns the collection cond (or one term of its conjunction) tests for
// elements: len(v) > 0, len(v) != 0, 0 < len(v); nil otherwise.
func (rd Reader) nonEmptyTest(cond ast.Expr) *types.Var {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	switch {
	case be.Op == token.LAND:
		if v := rd.nonEmptyTest(be.X); v != nil {
			return v
		}
		return rd.nonEmptyTest(be.Y)
	case (be.Op == token.GTR || be.Op == token.NEQ) && rd.isZero(be.Y):
		return rd.collectionVar(rd.lenOf(be.X))
	case be.Op == token.LSS && rd.isZero(be.X):
		return rd.collectionVar(rd.lenOf(be.Y))
	}
	return nil
}

// collectionVar returns the variable e names when it is a slice or map, or nil.
func (rd Reader) collectionVar(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || e == nil {
		return nil
	}
	v, ok := rd.info().Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return nil
	}
	switch v.Type().Underlying().(type) {
	case *types.Slice, *types.Map:
		return v
	}
	return nil
}

// FillOf says how a function of the package adds to the collection it is given as its
// parameter param: under the claim gate it returns, or never (nil, true); ok is false when
// it adds outside any claim, or what it does cannot be read (a function elsewhere, a cycle).
type FillOf func(fn *types.Func, param int) (g *Gate, ok bool)

// ClaimedFill returns a claim gate under which body adds to the collection v, when every
// addition is made under one (nil, true when body adds nothing); ok is false otherwise.
// An addition is v[k] = x, v = append(v, ...), or a call given a map v: a call made under
// a claim, or one to a function that adds to it only under claims of its own (of). A call
// given a slice adds nothing the caller sees: it may grow only its own copy. With
// local, v is a variable body defines, and must start empty (var v []T, make(map[K]V),
// []T{}). v used in a function literal is not followed: ok is false. An alias (w := v) is
// taken for a read: what is added through it is not seen.
func (rd Reader) ClaimedFill(body *ast.BlockStmt, v *types.Var, local bool, gates []*Gate, of FillOf) (claim *Gate, ok bool) {
	info := rd.info()
	is := func(e ast.Expr) bool {
		id, isID := ast.Unparen(e).(*ast.Ident)
		return isID && (info.Uses[id] == v || info.Defs[id] == v)
	}
	ok, defined := true, !local
	added := func(pos token.Pos) {
		if g := claimAt(gates, pos); g != nil {
			claim = g
		} else {
			ok = false
		}
	}
	ast.Inspect(body, func(x ast.Node) bool {
		if !ok {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			if refers(info, x, v) {
				ok = false
			}
			return false
		case *ast.ValueSpec:
			for i, n := range x.Names {
				if info.Defs[n] == v {
					defined = i >= len(x.Values) || rd.emptyValue(x.Values[i])
					ok = ok && defined
				}
			}
		case *ast.AssignStmt:
			for i, lhs := range x.Lhs {
				switch {
				case is(lhs) && x.Tok == token.DEFINE && info.Defs[lhs.(*ast.Ident)] == v:
					defined = len(x.Lhs) == len(x.Rhs) && rd.emptyValue(x.Rhs[i])
					ok = ok && defined
				case is(lhs):
					if len(x.Lhs) != len(x.Rhs) || !rd.appendTo(x.Rhs[i], is) {
						ok = false
						return false
					}
					added(x.Pos())
				default:
					if ix, isIndex := ast.Unparen(lhs).(*ast.IndexExpr); isIndex && is(ix.X) {
						added(x.Pos())
					}
				}
			}
		case *ast.IncDecStmt:
			if ix, isIndex := ast.Unparen(x.X).(*ast.IndexExpr); isIndex && is(ix.X) {
				added(x.Pos())
			}
		case *ast.CallExpr:
			if _, isMap := v.Type().Underlying().(*types.Map); isMap {
				rd.callFill(x, is, gates, of, &claim, &ok)
			}
		}
		return true
	})
	if !ok || !defined {
		return nil, false
	}
	return claim, true
}

// callFill judges a call that may be given the collection (is): a builtin that reads it or
// removes from it (len, cap, delete, append's later arguments, which copy it) adds nothing;
// append's first argument is the assignment's (ClaimedFill); any other call adds under the
// claim it is made under, or, for a function of the package, under the claims that
// function adds under (of). It sets ok false for an addition outside a claim.
func (rd Reader) callFill(call *ast.CallExpr, is func(ast.Expr) bool, gates []*Gate, of FillOf, claim **Gate, ok *bool) {
	info := rd.info()
	if id, isID := ast.Unparen(call.Fun).(*ast.Ident); isID {
		if _, builtin := info.Uses[id].(*types.Builtin); builtin {
			return
		}
	}
	for j, a := range call.Args {
		if !is(a) {
			continue
		}
		if g := claimAt(gates, call.Pos()); g != nil {
			*claim = g
			continue
		}
		fn := callee(info, call)
		if fn == nil || of == nil || call.Ellipsis.IsValid() || fn.Signature().Params().Len() != len(call.Args) {
			*ok = false
			return
		}
		g, fine := of(fn, j)
		if !fine {
			*ok = false
			return
		}
		if g != nil {
			*claim = g
		}
	}
}

// claimAt returns a gate of gates that covers pos and claims the job's key (a stable key, a
// claim of its own: not a duplicate check, not one that holds only on a transaction), or
// nil.
func claimAt(gates []*Gate, pos token.Pos) *Gate {
	for _, g := range gates {
		if g.claims() && g.Covers(pos) {
			return g
		}
	}
	return nil
}

// appendTo reports whether e is append(v, ...) for the collection is names.
func (rd Reader) appendTo(e ast.Expr, is func(ast.Expr) bool) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	return ok && len(call.Args) > 0 && is(call.Args[0]) && rd.isBuiltin(call, "append")
}

// emptyValue reports whether e makes an empty slice or map: make(map[K]V[, n]),
// make([]T, 0[, n]), a composite literal with no elements, nil.
func (rd Reader) emptyValue(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return len(x.Elts) == 0
	case *ast.Ident:
		return x.Name == "nil" && rd.info().Uses[x] == types.Universe.Lookup("nil")
	case *ast.CallExpr:
		if !rd.isBuiltin(x, "make") || len(x.Args) == 0 {
			return false
		}
		if _, isMap := rd.info().TypeOf(x.Args[0]).Underlying().(*types.Map); isMap {
			return true
		}
		return len(x.Args) > 1 && rd.isZero(x.Args[1])
	}
	return false
}

// refers reports whether node n names v.
func refers(info *types.Info, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok && info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// Over returns the gate g guards a collection with: the region [start, end) acts on what
// the collection name was filled with under g's claim.
func (g *Gate) Over(name string, start, end token.Pos) *Gate {
	return &Gate{Start: start, End: end, What: g.What + " (through " + name + ", filled under it)"}
}

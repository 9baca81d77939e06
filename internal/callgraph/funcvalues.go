package callgraph

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
)

// Function values. A callback's effects happen where it is called, and three shapes of
// that call are followed:
//
//   - a function that calls one of its parameters (Node.Calls, Fact.Calls): at each call
//     of it, the function value passed in that position (a literal, a function, a method
//     value, a local variable defined once as one of those) enters the caller through the
//     callee: handler -> Loop -> func literal in handler -> sink; unless the function calls
//     it only with what a receive in a loop around the call received (Node.PerMessage): it
//     is then the handler of the consumer the function starts, and enters no caller;
//   - a call of a struct field or a package variable, or of an element of a map or slice
//     held in one (s.onMsg(m), handlers[k](m)): every function value the package stores
//     there enters the caller;
//   - a local variable defined once from such a slot (h, ok := handlers[k]; h(m)).
//
// Everything else a function value does (returned, sent on a channel, stored by another
// package) stays what it was: its effects count where the value is made.

// valueResolver follows function values to the functions they may hold (funcValue), for
// the builder's sites of callbacks, slot calls and value calls, and for the handlers'
// registration loops (Graph.StoredElements). Its index of the package's stores is its own:
// only a package that calls a function value held in a slot pays for it.
type valueResolver struct {
	*core
	// slots are the function values stored in each field and package variable, indexed on
	// the first call of one (slotStores); slotCache their resolved values.
	slots     map[slotKey][]ast.Expr
	slotCache map[slotKey][]funcValue
	// fieldCalls are the calls of a parameter's func-typed field in each function that has
	// them (fieldcalls.go), fieldCallExprs those calls.
	fieldCalls     map[*Node][]fieldCall
	fieldCallExprs map[*ast.CallExpr]bool
	// receiveCall says which framework's message a call receives ("" for none): a
	// parameter called with it in the loop around the receive is a handler the function
	// runs per message (perMessage), not a callback its caller's call runs.
	receiveCall func(*types.Func, *ast.CallExpr) string
}

// funcValue is one function a value may hold: a node of the package or a function of
// another with a fact.
type funcValue struct {
	local *Node
	fact  *effect.Fact
	name  string      // hop name
	fn    *types.Func // the function referred to, nil for a literal
}

// paramCandidates is the mask of the parameters of sig that have a function type (the
// variadic one excluded: its argument is a slice).
func paramCandidates(sig *types.Signature) uint64 {
	var m uint64
	if sig == nil {
		return 0
	}
	for i := 0; i < sig.Params().Len() && i < 64; i++ {
		if sig.Variadic() && i == sig.Params().Len()-1 {
			break
		}
		if _, ok := sig.Params().At(i).Type().Underlying().(*types.Signature); ok {
			m |= 1 << i
		}
	}
	return m
}

// solveCalls computes Node.Calls for every declared function: a greatest fixpoint that
// starts from every function-typed parameter and drops one as soon as a use of it lets it
// escape, so that recursion (Loop(f) calling Loop(f)) keeps its bit and a cycle ends (bits
// only go away).
func (fv *valueResolver) solveCalls() {
	var cands []*Node
	for _, n := range fv.Nodes {
		if n.Fn != nil {
			if n.Calls = paramCandidates(n.Sig); n.Calls != 0 {
				cands = append(cands, n)
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, n := range cands {
			if m, _ := fv.calledParams(n); m != n.Calls {
				n.Calls, changed = m, true
			}
		}
	}
	for _, n := range cands {
		_, n.PerMessage = fv.calledParams(n)
	}
}

// calledParams returns the parameters of n's current mask that n calls at least once and
// uses in no other way than calling them, comparing them with nil, or handing them to a
// callee whose mask says it only calls them. The walk includes n's literals: a callback
// called in a goroutine or a deferred closure of n is still called by n. It also returns
// the function-typed parameters n calls only per message (perMessage), which it runs as
// handlers of the messages a loop receives, and uses in no other way.
func (fv *valueResolver) calledParams(n *Node) (calls, perMsg uint64) {
	params := map[*types.Var]int{}
	cands := paramCandidates(n.Sig)
	for i := 0; i < n.Sig.Params().Len() && i < 64; i++ {
		if cands&(1<<i) != 0 {
			params[n.Sig.Params().At(i)] = i
		}
	}
	info := fv.in.Info
	param := func(e ast.Expr) (int, *ast.Ident) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return -1, nil
		}
		v, _ := info.Uses[id].(*types.Var)
		if i, ok := params[v]; ok && v != nil {
			return i, id
		}
		return -1, nil
	}
	var called, escaped, handled uint64
	fine := map[*ast.Ident]bool{}
	ast.PreorderStack(n.Body, nil, func(x ast.Node, stack []ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			if i, id := param(x.Fun); id != nil {
				if fv.perMessage(x, stack) {
					handled |= 1 << i
				} else {
					called |= 1 << i
				}
				fine[id] = true
			}
			mask := fv.callsOf(typeutil.StaticCallee(info, x))
			for j, arg := range callArgs(info, x) {
				if i, id := param(arg); id != nil && j < 64 && mask&(1<<j) != 0 {
					called |= 1 << i
					fine[id] = true
				}
			}
		case *ast.BinaryExpr:
			if x.Op == token.EQL || x.Op == token.NEQ {
				for _, side := range []ast.Expr{x.X, x.Y} {
					if _, id := param(side); id != nil {
						fine[id] = true
					}
				}
			}
		case *ast.Ident:
			if i, id := param(x); id != nil && !fine[id] {
				escaped |= 1 << i
			}
		}
		return true
	})
	return n.Calls & called &^ escaped, handled &^ called &^ escaped
}

// perMessage reports whether call, a call of a parameter, hands it what a receive in a loop
// around the call received (for { m, err := r.FetchMessage(ctx); ...; handle(m.Value) },
// also from a literal inside that loop: retry(func() error { return handle(m.Value) })): the
// parameter is the handler of each message the loop receives, run by the loop, not by the
// function's caller, whose call only starts it (the handlers stage registers it there).
func (fv *valueResolver) perMessage(call *ast.CallExpr, stack []ast.Node) bool {
	if fv.receiveCall == nil || len(call.Args) == 0 {
		return false
	}
	for i := len(stack) - 1; i >= 0; i-- {
		var body *ast.BlockStmt
		switch loop := stack[i].(type) {
		case *ast.ForStmt:
			body = loop.Body
		case *ast.RangeStmt:
			body = loop.Body
		default:
			continue
		}
		received := fv.receivedIn(body, call.Pos())
		if len(received) == 0 {
			continue
		}
		for _, a := range call.Args {
			if fv.in.Judge.Defs.Find(a, defuse.Ranged, func(x ast.Node) bool {
				id, ok := x.(*ast.Ident)
				return ok && received[fv.in.Info.Uses[id]]
			}) {
				return true
			}
		}
	}
	return false
}

// receivedIn returns the variables a receive call in body (not in literals) assigns before
// pos: m of m, err := r.FetchMessage(ctx).
func (fv *valueResolver) receivedIn(body *ast.BlockStmt, pos token.Pos) map[types.Object]bool {
	var out map[types.Object]bool
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if x.End() > pos || len(x.Rhs) != 1 {
				return true
			}
			call, ok := ast.Unparen(x.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return true
			}
			fn, _ := typeutil.Callee(fv.in.Info, call).(*types.Func)
			if fn == nil || fv.receiveCall(fn.Origin(), call) == "" {
				return true
			}
			for _, l := range x.Lhs {
				// The message, not the receive's error (msgs, err := sub.Fetch(10)).
				if id, ok := l.(*ast.Ident); ok && fv.in.Info.ObjectOf(id) != nil && !types.Identical(fv.in.Info.ObjectOf(id).Type(), errorType) {
					if out == nil {
						out = map[types.Object]bool{}
					}
					out[fv.in.Info.ObjectOf(id)] = true
				}
			}
		}
		return true
	})
	return out
}

// callsOf is the Calls mask of a statically called function: its node's, or its fact's.
func (fv *valueResolver) callsOf(fn *types.Func) uint64 {
	if fn == nil {
		return 0
	}
	fn = fn.Origin()
	if n := fv.ByFunc[fn]; n != nil {
		return n.Calls
	}
	if fn.Pkg() == nil || fn.Pkg() == fv.in.Pkg {
		return 0
	}
	if f := fv.Fact(fn); f != nil {
		return f.Calls
	}
	return 0
}

// routeArgs adds, for a call of fn whose mask says it calls the parameter, a site for each
// function value passed there, through fn; it returns the arguments that
// were routed, whose values must not also enter n directly (the shorter chain would hide
// the one through fn).
func (fv *valueResolver) routeArgs(n *Node, fn *types.Func, call *ast.CallExpr, args []ast.Expr) map[ast.Expr]bool {
	// A mask never holds the variadic parameter, so a spread (xs...) changes no position.
	mask := fv.callsOf(fn)
	if local := fv.ByFunc[fn]; mask == 0 && (local == nil || local.PerMessage == 0) {
		return nil
	}
	callee := effect.FuncName(fn, nil)
	var perMsg uint64
	if local := fv.ByFunc[fn]; local != nil {
		callee, perMsg = local.HopName(), local.PerMessage
	}
	var routed map[ast.Expr]bool
	for j, arg := range args {
		if j < 64 && perMsg&(1<<j) != 0 {
			// A handler the callee's consumer runs per message: not the caller's effects,
			// nor where the value is written.
			if direct := fv.funcValue(arg); direct != nil {
				if routed == nil {
					routed = map[ast.Expr]bool{}
				}
				routed[arg] = true
			}
			continue
		}
		if j >= 64 || mask&(1<<j) == 0 {
			continue
		}
		for _, v := range fv.funcValues(arg, 0, true) {
			n.Sites = append(n.Sites, Site{Pos: call.Pos(), line: fv.line(call.Pos()), callee: callee, local: v.local, fact: v.fact, value: v.name})
		}
		if direct := fv.funcValue(arg); direct != nil {
			if routed == nil {
				routed = map[ast.Expr]bool{}
			}
			routed[arg] = true
			if direct.fn != nil {
				fv.Referenced[direct.fn] = true
			}
		}
	}
	return routed
}

// funcValue resolves an expression that is itself a function value: a literal, a function
// or a method value (not through a variable); nil for anything else or a function that
// neither is in the package nor has a fact.
func (fv *valueResolver) funcValue(e ast.Expr) *funcValue {
	e = unconvert(fv.in.Info, e)
	if lit, ok := e.(*ast.FuncLit); ok {
		if n := fv.ByLit[lit]; n != nil {
			return &funcValue{local: n, name: n.HopName()}
		}
		return nil
	}
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	case *ast.IndexExpr: // f[T]
		return fv.funcValue(x.X)
	case *ast.IndexListExpr:
		return fv.funcValue(x.X)
	default:
		return nil
	}
	fn, ok := fv.in.Info.Uses[id].(*types.Func)
	if !ok {
		return nil
	}
	fn = fn.Origin()
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		return nil // an interface method value: its implementations are not in view here
	}
	if n := fv.ByFunc[fn]; n != nil {
		return &funcValue{local: n, name: n.HopName(), fn: fn}
	}
	if fn.Pkg() == nil || fn.Pkg() == fv.in.Pkg {
		return nil
	}
	if f := fv.Fact(fn); f != nil {
		return &funcValue{fact: f, name: effect.FuncName(fn, nil), fn: fn}
	}
	return nil
}

// unconvert strips parentheses and conversions from e: batch.Func(record) is record.
func unconvert(info *types.Info, e ast.Expr) ast.Expr {
	for {
		e = ast.Unparen(e)
		call, ok := e.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !info.Types[call.Fun].IsType() {
			return e
		}
		e = call.Args[0]
	}
}

// funcValues resolves e to the function values it may hold: e itself, or what the local
// variable it names was defined as once, or (with slots) what the slot it reads holds.
func (fv *valueResolver) funcValues(e ast.Expr, depth int, slots bool) []funcValue {
	if depth > defuse.MaxDepth {
		return nil
	}
	if v := fv.funcValue(e); v != nil {
		return []funcValue{*v}
	}
	if id, ok := unconvert(fv.in.Info, e).(*ast.Ident); ok {
		if v, _ := fv.in.Info.Uses[id].(*types.Var); v != nil && v.Parent() != fv.in.Pkg.Scope() {
			if d := fv.in.Judge.Defs.Def(v); d != nil {
				return fv.funcValues(d, depth+1, slots)
			}
			return nil
		}
	}
	if k, ok := fv.slotOf(e); ok && slots {
		return fv.slotValues(k)
	}
	return nil
}

// slotKey names a place a package stores function values in: a struct field or a package
// variable (elem false), or the elements of the map, slice or array it holds (elem true).
type slotKey struct {
	v    *types.Var
	elem bool
}

// slotOf returns the slot an expression reads or writes: s.f, pkgVar, s.f[k], pkgVar[k].
func (fv *valueResolver) slotOf(e ast.Expr) (slotKey, bool) {
	switch x := unconvert(fv.in.Info, e).(type) {
	case *ast.SelectorExpr:
		if v, ok := fv.in.Info.Uses[x.Sel].(*types.Var); ok && v.IsField() {
			return slotKey{v.Origin(), false}, true
		}
	case *ast.Ident:
		if v, ok := fv.in.Info.Uses[x].(*types.Var); ok && v.Pkg() == fv.in.Pkg && v.Parent() == fv.in.Pkg.Scope() {
			return slotKey{v, false}, true
		}
	case *ast.IndexExpr:
		if !container(fv.in.Info.TypeOf(x.X)) {
			return slotKey{}, false
		}
		if k, ok := fv.slotOf(x.X); ok && !k.elem {
			return slotKey{k.v, true}, true
		}
	}
	return slotKey{}, false
}

// container reports whether t holds elements an index expression reads: a map, a slice, an
// array or a pointer to one.
func container(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	switch t.Underlying().(type) {
	case *types.Map, *types.Slice, *types.Array:
		return true
	}
	return false
}

// slotValues returns the function values the package stores in slot k: assigned to it, set
// by key in a composite literal, or, for elements, assigned by index or listed in a
// composite literal assigned to the whole.
func (fv *valueResolver) slotValues(k slotKey) []funcValue {
	if vs, ok := fv.slotCache[k]; ok {
		return vs
	}
	stores := fv.slotStores()
	var exprs []ast.Expr
	exprs = append(exprs, stores[k]...)
	if k.elem {
		for _, whole := range stores[slotKey{k.v, false}] {
			exprs = append(exprs, fv.elements(whole, 0)...)
		}
	}
	var out []funcValue
	for _, e := range exprs {
		// One slot copied into another is not followed (and leaves no cycle to break).
		out = append(out, fv.funcValues(e, 1, false)...)
	}
	if fv.slotCache == nil {
		fv.slotCache = map[slotKey][]funcValue{}
	}
	fv.slotCache[k] = out
	return out
}

// storedElements returns the expressions the package stores as elements of the slice, map
// or array held in the slot (a struct field or a package variable) e reads: listed in a
// composite literal stored there, or in one a local variable stored there was defined as,
// or appended to that variable (list = append(list, inv.Compute)). For a registration
// loop over a configuration's field (for _, a := range cfg.Activities).
func (fv *valueResolver) storedElements(e ast.Expr) []ast.Expr {
	k, ok := fv.slotOf(e)
	if !ok || k.elem {
		return nil
	}
	var out []ast.Expr
	for _, whole := range fv.slotStores()[k] {
		out = append(out, fv.allElements(whole, 0)...)
	}
	return out
}

// allElements returns the elements of a composite literal, or of every definition of the
// local variable e names: its literals and what each append adds.
func (fv *valueResolver) allElements(e ast.Expr, depth int) []ast.Expr {
	if depth > defuse.MaxDepth {
		return nil
	}
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return fv.elements(e, depth)
	}
	v, _ := fv.in.Info.Uses[id].(*types.Var)
	if v == nil || v.Parent() == fv.in.Pkg.Scope() {
		return nil
	}
	var out []ast.Expr
	for _, d := range fv.in.Judge.Defs.Defs(v) {
		switch d := ast.Unparen(d).(type) {
		case *ast.CompositeLit:
			out = append(out, fv.elements(d, depth+1)...)
		case *ast.CallExpr:
			if b, ok := fv.in.Info.Uses[identOf(d.Fun)].(*types.Builtin); ok && b.Name() == "append" && d.Ellipsis == 0 && len(d.Args) > 1 {
				out = append(out, d.Args[1:]...)
			}
		}
	}
	return out
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// elements returns the values of a composite literal (or of the local variable defined
// once as one).
func (fv *valueResolver) elements(e ast.Expr, depth int) []ast.Expr {
	if depth > defuse.MaxDepth {
		return nil
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		var out []ast.Expr
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			out = append(out, el)
		}
		return out
	case *ast.Ident:
		if v, ok := fv.in.Info.Uses[x].(*types.Var); ok {
			if d := fv.in.Judge.Defs.Def(v); d != nil {
				return fv.elements(d, depth+1)
			}
		}
	}
	return nil
}

// slotStores indexes, on first use, the expressions the package stores in each slot: one
// walk of the files, paid only by packages that call a function value held in a slot.
func (fv *valueResolver) slotStores() map[slotKey][]ast.Expr {
	if fv.slots != nil {
		return fv.slots
	}
	fv.slots = map[slotKey][]ast.Expr{}
	info := fv.in.Info
	for _, f := range fv.in.Files {
		ast.Inspect(f, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.AssignStmt:
				if len(x.Lhs) != len(x.Rhs) || (x.Tok != token.ASSIGN && x.Tok != token.DEFINE) {
					return true
				}
				for i, l := range x.Lhs {
					if k, ok := fv.slotOf(l); ok {
						fv.slots[k] = append(fv.slots[k], x.Rhs[i])
					}
				}
			case *ast.ValueSpec:
				for i, name := range x.Names {
					v, _ := info.Defs[name].(*types.Var)
					if v != nil && v.Parent() == fv.in.Pkg.Scope() && i < len(x.Values) && len(x.Values) == len(x.Names) {
						fv.slots[slotKey{v, false}] = append(fv.slots[slotKey{v, false}], x.Values[i])
					}
				}
			case *ast.CompositeLit:
				fv.fieldStores(x)
			}
			return true
		})
	}
	return fv.slots
}

// fieldStores records the fields a struct composite literal sets, by key or by position.
func (fv *valueResolver) fieldStores(lit *ast.CompositeLit) {
	t := fv.in.Info.TypeOf(lit)
	if t == nil {
		return
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return
	}
	for i, el := range lit.Elts {
		var field *types.Var
		value := el
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok {
				field, _ = fv.in.Info.Uses[id].(*types.Var)
			}
			value = kv.Value
		} else if i < st.NumFields() {
			field = st.Field(i)
		}
		if field != nil && field.IsField() {
			k := slotKey{field.Origin(), false}
			fv.slots[k] = append(fv.slots[k], value)
		}
	}
}

// valueCall adds a site for each function value a call of a variable, a field or an
// element may run: what a local variable was defined as once, what the package stores in
// the slot. A parameter holds what callers pass, out of view: its call stays open only.
func (fv *valueResolver) valueCall(n *Node, call *ast.CallExpr) {
	if fv.fieldCallExprs[call] {
		return // what its callers put in the field enters them through n (routeFields)
	}
	for _, v := range fv.funcValues(call.Fun, 0, true) {
		var args []ast.Expr
		if v.local == nil || v.local.Fn != nil {
			args = callArgs(fv.in.Info, call) // a literal's parameters are not its chain's
		}
		n.Sites = append(n.Sites, Site{Pos: call.Pos(), line: fv.line(call.Pos()), callee: v.name, local: v.local, fact: v.fact, args: args})
	}
}

package callgraph

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// Receive calls the models do not name themselves. A consumer often reaches its library's
// receive call through its own seams: an interface of its own that the client implements
// (type ConsumerClient interface{ PollFetches(ctx) kgo.Fetches }), or a helper that polls,
// checks the errors and returns the batch to the loop that handles it. Both are receive
// calls of the caller; the helper's own receive is not, since it hands what it received
// back.

// receiveFinder tells which calls receive a message. The builder records them in
// Node.Receives (where a receive region starts: the handlers decide where it ends); the
// scope of a sink call counts what they, or a receive from a channel of deliveries,
// received as its input (a key made from a message identifies it); and a function's fact
// says which receive its result comes from (Fact.Receives). All three are needed while the
// graph is built and its facts exported, before the handlers run: that is why receive
// detection stays in the call graph while the regions' spans are the handlers'.
type receiveFinder struct {
	*core
	dispatch *dispatcher // receive methods behind an interface of the application's own
	// helpers caches returnsReceive: the receive each function of the package returns the
	// result of (the zero helperRead for none).
	helpers map[*Node]helperRead
	// bodyRecv caches receivedVarsOf by function body.
	bodyRecv map[*ast.BlockStmt]map[*types.Var]helperRead
}

// helperRead is the receive a helper returns the result of: its framework, and the modelled
// receive call in the package that reads the message (through the helpers it calls).
type helperRead struct {
	fw   string
	read *ast.CallExpr
}

// receiveOf returns the framework of the receive call that call (of fn, in n) makes: fn's
// own model; for a method of an interface the models do not name, a modelled receive
// method of the same name whose receiver type implements the interface; for a function of
// this package, the receive whose result it returns, and for another package's, what its
// fact says (Fact.Receives). It is "" for a receive that n itself
// returns to its caller outside any loop: the caller's loop handles the message.
func (rf *receiveFinder) receiveOf(n *Node, fn *types.Func, call *ast.CallExpr) string {
	fw := rf.receiveCall(fn, call)
	if fw != "" && n.Fn != nil && !inLoop(n.Body, call) && rf.returnsReceive(n) != "" {
		return ""
	}
	return fw
}

// receiveCall is receiveOf without the exception for the helper's own receive.
func (rf *receiveFinder) receiveCall(fn *types.Func, call *ast.CallExpr) string {
	if fw := rf.in.Judge.Models.Of(fn).Receive; fw != "" {
		return fw
	}
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		return rf.receiveThrough(fn, call)
	}
	if local := rf.ByFunc[fn]; local != nil {
		return rf.returnsReceive(local)
	}
	if fn.Pkg() != nil && fn.Pkg() != rf.in.Pkg {
		if f := rf.Fact(fn); f != nil {
			return f.Receives
		}
	}
	return ""
}

// receiveThrough returns the framework of a modelled receive method named like the
// interface method m whose receiver type implements the interface call is made on, or of
// an implementation a program-wide link found that returns a receive.
func (rf *receiveFinder) receiveThrough(m *types.Func, call *ast.CallExpr) string {
	// An implementation elsewhere in the program, a helper that returns what it received
	// (its fact's Receives), as a program-wide link found it.
	for _, l := range rf.Linked(call.Pos()) {
		if l.Fact != nil && l.Fact.Receives != "" {
			return l.Fact.Receives
		}
	}
	iface := rf.dispatch.receiverInterface(m, call)
	if iface == nil {
		return ""
	}
	for _, full := range rf.in.Judge.Models.ReceiveMethods(m.Name()) {
		if impl := rf.dispatch.lookupMethod(full); impl != nil && rf.dispatch.implements(impl, iface) {
			return rf.in.Judge.Models.Of(impl.Origin()).Receive
		}
	}
	return ""
}

// returnsReceive returns the framework of the receive call whose result n returns (a
// result of its type made from the call, through local variables), or "".
func (rf *receiveFinder) returnsReceive(n *Node) string { return rf.helperRead(n).fw }

// readBehind returns the modelled receive call that reads the message call receives: call
// itself, or for a helper of this package that returns what it received, the receive call
// in its body (through the helpers it calls); nil for a helper of another package.
func (rf *receiveFinder) readBehind(fn *types.Func, call *ast.CallExpr) *ast.CallExpr {
	if rf.in.Judge.Models.Of(fn.Origin()).Receive != "" {
		return call
	}
	if local := rf.ByFunc[fn.Origin()]; local != nil {
		return rf.helperRead(local).read
	}
	return nil
}

func (rf *receiveFinder) helperRead(n *Node) helperRead {
	if h, ok := rf.helpers[n]; ok {
		return h
	}
	if rf.helpers == nil {
		rf.helpers = map[*Node]helperRead{}
	}
	rf.helpers[n] = helperRead{} // a recursive helper returns no receive through itself
	var h helperRead
	ast.Inspect(n.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			for _, r := range x.Results {
				if h.fw == "" {
					h = rf.receivedIn(r)
				}
				if h.fw == "" {
					h = rf.convertedIn(n.Body, r)
				}
			}
		}
		return h.fw == ""
	})
	rf.helpers[n] = h
	return h
}

// convertedIn returns the framework of the receive call whose message (or batch) the
// returned e is converted from, in body: a value of a struct type of the program built from
// what the receive returned (return Message{Key: m.Key, Value: m.Value}, through local
// variables), or a slice filled in a range over the received batch (messages[i] =
// *toCommand(msg), messages = append(messages, ...)); "" otherwise, and for a value of
// another kind (len(msgs) is no message).
func (rf *receiveFinder) convertedIn(body *ast.BlockStmt, e ast.Expr) helperRead {
	if !messageLike(rf.in.Info.TypeOf(e)) {
		return helperRead{}
	}
	recv := rf.receivedVarsOf(body)
	if len(recv) == 0 {
		return helperRead{}
	}
	if h := rf.madeFrom(e, recv); h.fw != "" {
		return h
	}
	// A slice filled in a range over the received batch.
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return helperRead{}
	}
	v, ok := rf.in.Info.Uses[id].(*types.Var)
	if !ok {
		return helperRead{}
	}
	var h helperRead
	ast.Inspect(body, func(x ast.Node) bool {
		if r, ok := x.(*ast.RangeStmt); ok && h.fw == "" && rf.storesInto(r.Body, v) {
			h = rf.madeFrom(r.X, recv)
		}
		return h.fw == ""
	})
	return h
}

// receivedVarsOf returns the variables of body (not of its literals) assigned what a
// receive call returned, or the run of the command it built, with the receive; once per
// body (a helper with several returns asks for each).
func (rf *receiveFinder) receivedVarsOf(body *ast.BlockStmt) map[*types.Var]helperRead {
	if recv, ok := rf.bodyRecv[body]; ok {
		return recv
	}
	if rf.bodyRecv == nil {
		rf.bodyRecv = map[*ast.BlockStmt]map[*types.Var]helperRead{}
	}
	recv := map[*types.Var]helperRead{}
	rf.bodyRecv[body] = recv // a recursive helper sees what is found so far
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if len(x.Rhs) != 1 {
				return true
			}
			call, ok := ast.Unparen(x.Rhs[0]).(*ast.CallExpr)
			if !ok {
				return true
			}
			// The receive call's result, or (for a message) the run of the command it
			// built (entries, err := client.Do(ctx, cmd).AsXRead()); the second asks
			// for a walk of the definitions, so only where the first is not.
			var h helperRead
			if fn, ok := typeutil.Callee(rf.in.Info, call).(*types.Func); ok {
				if fw := rf.receiveCall(fn.Origin(), call); fw != "" {
					h = helperRead{fw, rf.readBehind(fn, call)}
				}
			}
			if h.fw == "" && messageLike(firstType(rf.in.Info.TypeOf(call))) {
				h = rf.receivedIn(call)
			}
			if h.fw != "" {
				for _, l := range x.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						if v, ok := rf.in.Info.ObjectOf(id).(*types.Var); ok {
							recv[v] = h
						}
					}
				}
			}
		}
		return true
	})
	return recv
}

// madeFrom returns the receive of the first variable of recv that e uses, through local
// definitions, or the zero helperRead.
func (rf *receiveFinder) madeFrom(e ast.Expr, recv map[*types.Var]helperRead) helperRead {
	var h helperRead
	rf.in.Judge.Defs.Find(e, 0, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if v, ok := rf.in.Info.Uses[id].(*types.Var); ok {
				h = recv[v]
			}
		}
		return h.fw != ""
	})
	return h
}

// firstType returns the type of the first value of t, a call's result (its first for
// several).
func firstType(t types.Type) types.Type {
	if tuple, ok := t.(*types.Tuple); ok && tuple.Len() > 0 {
		return tuple.At(0).Type()
	}
	return t
}

// messageLike reports whether t can hold a message: a named struct type, a pointer to one,
// a slice of either, or a map of those (rueidis AsXRead: entries by stream).
func messageLike(t types.Type) bool {
	if t == nil {
		return false
	}
	if m, ok := t.Underlying().(*types.Map); ok {
		t = m.Elem()
	}
	if s, ok := t.Underlying().(*types.Slice); ok {
		t = s.Elem()
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return false
	}
	_, ok = named.Underlying().(*types.Struct)
	return ok
}

// storesInto reports whether body assigns an element of v or appends to it.
func (rf *receiveFinder) storesInto(body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(x ast.Node) bool {
		a, ok := x.(*ast.AssignStmt)
		if !ok {
			return !found
		}
		for _, l := range a.Lhs {
			if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
				l = ix.X
			}
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && rf.in.Info.ObjectOf(id) == v {
				found = true
			}
		}
		return !found
	})
	return found
}

// receivedIn returns the receive call e is the result of, directly or through local
// variables: a call whose first result has e's type (of e's first value, for a call
// returning several). Or, for a message-like e, a receive call whose result is a command
// that e is the run of: client.Do(ctx, cmd).AsXRead() with cmd built from a rueidis
// B().Xreadgroup() chain, rdb.XReadGroup(ctx, args).Result() with go-redis. A value of
// another kind made from a receive (its error, a count) is no message.
func (rf *receiveFinder) receivedIn(e ast.Expr) helperRead {
	t := firstType(rf.in.Info.TypeOf(e))
	if t == nil {
		return helperRead{}
	}
	run := messageLike(t)
	var h helperRead
	rf.in.Judge.Defs.Find(e, 0, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, ok := typeutil.Callee(rf.in.Info, call).(*types.Func)
		if !ok {
			return false
		}
		res := fn.Signature().Results()
		switch {
		case res.Len() == 0:
		case types.Identical(res.At(0).Type(), t):
			if fw := rf.receiveCall(fn.Origin(), call); fw != "" {
				h = helperRead{fw, rf.readBehind(fn, call)}
			}
		case run:
			// Only a modelled receive's command is run to deliver (a helper's result is
			// its message): the cheap test, since every call of e's definitions passes.
			if fw := rf.in.Judge.Models.Of(fn.Origin()).Receive; fw != "" {
				h = helperRead{fw, call}
			}
		}
		return h.fw != ""
	})
	return h
}

// inLoop reports whether call is inside a for or range statement of body, not looking
// into function literals.
func inLoop(body *ast.BlockStmt, call *ast.CallExpr) bool {
	found := false
	ast.Inspect(body, func(x ast.Node) bool {
		if found || x == nil || call.Pos() < x.Pos() || call.Pos() >= x.End() {
			return false
		}
		switch x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		}
		return !found
	})
	return found
}

// receivedVars adds to params the variables a modelled receive call in body is assigned to
// (msgs, err := sub.Fetch(10)), and those of a range over one of them (for _, m := range
// msgs): in a receive loop the message comes from there, not from a parameter, and a key
// made from it identifies the message.
func (rf *receiveFinder) receivedVars(body *ast.BlockStmt, params map[*types.Var]bool) {
	if body == nil {
		return
	}
	received := map[*types.Var]bool{}
	add := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok {
			if v, ok := rf.in.Info.ObjectOf(id).(*types.Var); ok {
				params[v], received[v] = true, true
			}
		}
	}
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.AssignStmt:
			if len(x.Rhs) == 1 && (rf.receives(x.Rhs[0]) || rf.deliveryRecv(x.Rhs[0])) {
				for _, l := range x.Lhs {
					add(l)
				}
			}
		case *ast.RangeStmt:
			if rf.mentions(x.X, received) || rf.Models().DeliveryChan(rf.in.Info.TypeOf(x.X)) != nil {
				add(x.Key)
				add(x.Value)
			}
		}
		return true
	})
}

// receives reports whether e is a call of a modelled receive call.
func (rf *receiveFinder) receives(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(rf.in.Info, call).(*types.Func)
	return ok && rf.in.Judge.Models.Of(fn.Origin()).Receive != ""
}

// deliveryRecv reports whether e receives from a channel of deliveries (<-msgs, with msgs
// a <-chan amqp.Delivery): the value received is the message a handler handles, like a
// modelled receive call's result.
func (rf *receiveFinder) deliveryRecv(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	return ok && u.Op == token.ARROW && rf.Models().DeliveryChan(rf.in.Info.TypeOf(u.X)) != nil
}

// mentions reports whether e uses one of vars.
func (rf *receiveFinder) mentions(e ast.Expr, vars map[*types.Var]bool) bool {
	found := false
	ast.Inspect(e, func(x ast.Node) bool {
		if id, ok := x.(*ast.Ident); ok {
			if v, ok := rf.in.Info.Uses[id].(*types.Var); ok && vars[v] {
				found = true
			}
		}
		return !found
	})
	return found
}

// returned is the framework of the receive whose result n returns, as far as resolving the
// package's calls asked (returnsReceive), for n's fact: "" when nothing asked.
func (rf *receiveFinder) returned(n *Node) string { return rf.helpers[n].fw }

// Hand-offs over channels: a consumer whose receive loop does not handle a delivery but
// sends it on, as a value of the program's own type (a Message that keeps the delivery's
// body and acknowledger), to goroutines that read that channel, do the work and ack. The
// reading side is the handler. The channel's element type is then a carrier of
// deliveries: a receive from a channel of it is a receive of a delivery (channels.go), in
// the package that sends and, through a CarrierFact, in the packages that import it (a
// main that reads what an rmq package's Consume returns).
//
// A value carries the delivery when it holds the delivery or a part of it (d, d.Body,
// d.Acknowledger, in a composite literal, a conversion, a closure that acks it, or the
// result of code with no effects: a decoder, a mapper), directly or through a local
// variable or one json.Unmarshal fills: the result of a call of code with effects given
// the delivery (r := store(d); out <- r) is what the handling produced, not the delivery.
// The program-wide link hands the carriers to the packages that read such a channel
// without importing the sender (a worker pool main wires to the consumer). A loop that
// acknowledges each delivery itself, before or after handing it on, makes its readers run
// at most once: a crash in a worker loses the message.

package handlers

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/model"
)

// CarrierFact is exported on a package whose delivery regions hand deliveries on over a
// channel of a type of the program: the carriers, sorted by type.
type CarrierFact struct {
	Carriers []callgraph.Carrier
}

// AFact marks CarrierFact as an analysis fact.
func (*CarrierFact) AFact() {}

func (f *CarrierFact) String() string {
	var s []string
	for _, c := range f.Carriers {
		s = append(s, c.Type+" "+c.Framework)
	}
	return "carries(" + strings.Join(s, ", ") + ")"
}

// deliveryChan returns the model of a channel of deliveries of type t: a modelled one, or
// a carrier's; nil for any other.
func (rg *regions) deliveryChan(t types.Type) *model.ReceiveChannel {
	if rc := rg.models.DeliveryChan(t); rc != nil {
		return rc
	}
	elem := model.ChanElem(t)
	if elem == "" || !programPath(elem[:max(strings.LastIndexByte(elem, '.'), 0)], rg.pkg) {
		return nil // a channel of the standard library's types: no carrier
	}
	if rg.depCarriers != nil {
		deps := rg.depCarriers()
		rg.depCarriers = nil
		for _, c := range deps {
			rg.addCarrier(c)
		}
	}
	return rg.carriers[elem]
}

// addCarrier makes c's type a channel of deliveries, unless it is one already.
func (rg *regions) addCarrier(c callgraph.Carrier) {
	if rg.carriers == nil {
		rg.carriers, rg.carrierOnce = map[string]*model.ReceiveChannel{}, map[string]string{}
	}
	if rg.carriers[c.Type] == nil {
		rg.carriers[c.Type] = &model.ReceiveChannel{Framework: c.Framework, Element: c.Type, AutoAckArg: -1}
		rg.carrierOnce[c.Type] = c.Once
	}
}

// ackedItself says why what a site hands on at `at` runs at most once, when the site
// acknowledges the delivery itself, before or after handing it on (processDelivery(d,
// jobs); d.Ack(false)), or "".
func (rg *regions) ackedItself(n *callgraph.Node, s handOffSite, at token.Pos) string {
	ack := rg.ackEnd(s.block.List, s.from)
	if ack == token.NoPos || ack > s.to {
		return ""
	}
	when := "after"
	if ack < at {
		when = "before"
	}
	pos := rg.fset.Position(ack)
	return fmt.Sprintf("%s acknowledges each message (%s:%d) %s handing it on over a channel: a crash in the worker loses it, and nothing delivers it again", n.Name, filepath.Base(pos.Filename), pos.Line, when)
}

// findCarriers adds to rg.carriers the element types of the channels the delivery regions
// of nodes hand deliveries on to, and returns the package's own, sorted (those a
// dependency or the link told of too: the link learns them again each round). A relay of a
// carrier into a channel of another type makes that type a carrier too (to a fixpoint).
func (rg *regions) findCarriers(nodes []*callgraph.Node) []callgraph.Carrier {
	own := map[string]callgraph.Carrier{}
	for changed := true; changed; {
		changed = false
		for _, n := range nodes {
			if n.Body == nil {
				continue
			}
			for _, s := range rg.handOffSites(n) {
				add := func(elem string, at token.Pos) {
					if own[elem].Framework != "" || (s.types[elem] && !s.pulled) {
						return // known, or a relay of what it received (merge)
					}
					c := callgraph.Carrier{Type: elem, Framework: s.framework, Once: rg.ackedItself(n, s, at)}
					own[elem], changed = c, true
					rg.addCarrier(c)
				}
				ast.Inspect(s.block, func(x ast.Node) bool {
					if x == nil || x.Pos() < s.from || x.Pos() >= s.to {
						return x != nil && x.End() > s.from && x.Pos() < s.to
					}
					switch x := x.(type) {
					case *ast.FuncLit:
						return false
					case *ast.SendStmt:
						if elem := rg.handedOn(x, s); elem != "" {
							add(elem, x.End())
						}
					case *ast.CallExpr:
						// q.Push(d): a buffering type of the package whose method sends
						// what it is given on a channel its workers read.
						for _, elem := range rg.bufferedBy(x, s) {
							add(elem, x.End())
						}
					}
					return true
				})
			}
		}
	}
	var out []callgraph.Carrier
	for _, t := range slices.Sorted(maps.Keys(own)) {
		out = append(out, own[t])
	}
	return out
}

// handedOn returns the element type of the channel send sends a delivery of site s on,
// when that type is the program's (not a modelled delivery's) or, for a site that pulled
// the message with a receive call, the message's own (ch <- &msg after FetchMessage), or
// "". It may be a carrier already (the program's link brought it): the package that sends
// still says it does, for the next round.
func (rg *regions) handedOn(send *ast.SendStmt, s handOffSite) string {
	elem := model.ChanElem(rg.info.TypeOf(send.Chan))
	if elem == "" || !(rg.programType(elem) || (s.pulled && s.types[elem])) || rg.libraryChan(send.Chan) || !rg.carries(send.Value, s.types, 0) {
		return ""
	}
	return elem
}

// libraryChan reports whether ch is a channel a modelled library's call returns (confluent's
// ProduceChannel()): a send there is the library's, a publish, not a hand-off.
func (rg *regions) libraryChan(ch ast.Expr) bool {
	call, ok := ast.Unparen(ch).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn, ok := typeutil.Callee(rg.info, call).(*types.Func)
	return ok && fn.Pkg() != nil && rg.models.Index.Modelled(fn.Pkg().Path())
}

// bufferedBy returns the carriers a call of a function of the package makes when it is
// given a delivery and sends it on (q.Push(d), Push doing q.items <- d): its sends of
// what it was given, one call deep.
func (rg *regions) bufferedBy(call *ast.CallExpr, s handOffSite) []string {
	fn, ok := typeutil.Callee(rg.info, call).(*types.Func)
	if !ok {
		return nil
	}
	callee := rg.graph.ByFunc[fn.Origin()]
	if callee == nil || callee.Body == nil {
		return nil
	}
	given := false
	for _, a := range call.Args {
		given = given || rg.carries(a, s.types, 0)
	}
	if !given {
		return nil
	}
	var out []string
	ast.Inspect(callee.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt:
			if elem := rg.handedOn(x, s); elem != "" {
				out = append(out, elem)
			}
		}
		return true
	})
	return out
}

// handOffSite is a delivery region that may hand its delivery on: its block and span, the
// type names of what it received, and its framework.
type handOffSite struct {
	block     *ast.BlockStmt
	from, to  token.Pos
	types     map[string]bool
	framework string
	pulled    bool // by a receive call (FetchMessage), not from a channel
}

// handOffSites returns n's delivery regions: its receives from channels of deliveries and
// its modelled receive calls (the code after them, in the loop around).
func (rg *regions) handOffSites(n *callgraph.Node) []handOffSite {
	var out []handOffSite
	for _, s := range rg.deliveryReceives(n) {
		out = append(out, handOffSite{block: s.block, from: s.from, to: s.to, types: map[string]bool{s.rc.Element: true}, framework: s.rc.Framework})
	}
	for _, r := range n.Receives {
		loop, from, to := receiveSpan(n, r)
		body := n.Body
		if loop != nil {
			body = loopBlock(loop)
		}
		ts := map[string]bool{}
		if t := resultElem(rg.info.TypeOf(r.Call)); t != "" {
			ts[t] = true
		}
		out = append(out, handOffSite{block: body, from: from, to: to, types: ts, framework: r.Framework, pulled: true})
	}
	return out
}

// resultElem names the type of what a receive call returns first, through slices and
// pointers ([]*nats.Msg: "github.com/nats-io/nats.go.Msg"), or "".
func resultElem(t types.Type) string {
	if tup, ok := t.(*types.Tuple); ok {
		if tup.Len() == 0 {
			return ""
		}
		t = tup.At(0).Type()
	}
	for {
		switch u := types.Unalias(t).(type) {
		case *types.Pointer:
			t = u.Elem()
			continue
		case *types.Slice:
			t = u.Elem()
			continue
		case *types.Named:
			if u.Obj().Pkg() == nil {
				return ""
			}
			return u.Obj().Pkg().Path() + "." + u.Obj().Name()
		}
		return ""
	}
}

// programType reports whether elem names a type of the program: not of the standard
// library nor of a modelled library (whose channels the models describe).
func (rg *regions) programType(elem string) bool {
	i := strings.LastIndex(elem, ".")
	if i <= 0 {
		return false
	}
	path := elem[:i]
	return !rg.models.Index.Modelled(path) && programPath(path, rg.pkg)
}

// programPath reports whether the package path is not the standard library's, as seen from
// pkg (model.OfProgram).
func programPath(path string, pkg *types.Package) bool { return model.OfProgram(path, pkg.Path()) }

// effectFree reports whether call calls a function known to have no effects: of the
// package, with none; of another, with no effects fact; not a modelled one, an interface
// method or a function value, whose effects are not known here.
func (rg *regions) effectFree(call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(rg.info, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return false
	}
	fn = fn.Origin()
	if recv := fn.Signature().Recv(); recv != nil && types.IsInterface(recv.Type()) {
		return false
	}
	if e := rg.models.Of(fn); e.Sink != nil || e.Receive != "" || e.Ack || e.HandlerCall != "" || e.Registration != nil {
		return false
	}
	if n := rg.graph.ByFunc[fn]; n != nil {
		return len(n.Effects) == 0
	}
	f := rg.graph.Fact(fn)
	return f == nil || len(f.Effects) == 0
}

// carries reports whether e holds a value of one of the delivery types (the delivery, a
// field of it, an element of its batch), or a closure over one (Ack: func() error {
// return ch.Ack(tag, false) }, tag the delivery's), not through the result of a call other
// than a conversion, through local variables up to two definitions deep, those that a
// call fills from the delivery included (json.Unmarshal(d.Body, &job)).
func (rg *regions) carries(e ast.Expr, delivery map[string]bool, depth int) bool {
	return rg.carriesIn(e, delivery, depth, false)
}

// carriesIn is carries, inLit inside a function literal, where every mention counts.
func (rg *regions) carriesIn(e ast.Node, delivery map[string]bool, depth int, inLit bool) bool {
	if e == nil {
		return false // a definition with no expression (var m T; a function's named result)
	}
	found := false
	ast.Inspect(e, func(x ast.Node) bool {
		if found {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			found = rg.carriesIn(x.Body, delivery, depth, true)
			return false
		case *ast.CallExpr:
			// A conversion carries its operand, and so does a call of code with no
			// effects (a decoder, a mapper): what it returns is made from its arguments.
			return inLit || rg.info.Types[x.Fun].IsType() || rg.effectFree(x)
		case *ast.Ident:
			v, ok := rg.info.Uses[x].(*types.Var)
			if !ok || v.IsField() {
				return false
			}
			if delivery[resultElem(v.Type())] {
				found = true
				return false
			}
			if depth < 2 && v.Parent() != nil && v.Parent() != v.Pkg().Scope() {
				for _, d := range rg.defs.Defs(v) {
					if rg.carriesIn(d, delivery, depth+1, false) {
						found = true
						return false
					}
				}
				for _, c := range rg.defs.Fills(v) {
					for _, a := range c.Args {
						if rg.carriesIn(a, delivery, depth+1, false) {
							found = true
							return false
						}
					}
				}
			}
		}
		return true
	})
	return found
}

// Hand-offs over channels: a consumer whose receive loop does not handle a delivery but
// sends it on, as a value of the program's own type (a Message that keeps the delivery's
// body and acknowledger), to goroutines that read that channel, do the work and ack. The
// reading side is the handler. The channel's element type is then a carrier of
// deliveries: a receive from a channel of it is a receive of a delivery (channels.go), in
// the package that sends and, through a CarrierFact, in the packages that import it (a
// main that reads what an rmq package's Consume returns).
//
// A value carries the delivery when it holds the delivery or a part of it (d, d.Body,
// d.Acknowledger, in a composite literal or a conversion), directly or through a local
// variable: the result of a call given the delivery (r := store(d); out <- r) is what the
// handling produced, a result, not the delivery.

package handlers

import (
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/callgraph"
	"github.com/chokaq/idemlint/internal/model"
)

// CarrierFact is exported on a package whose delivery regions hand deliveries on over a
// channel of a type of the program: the carriers, sorted by type.
type CarrierFact struct {
	Carriers []Carrier
}

// Carrier is a channel element type ("pkg/path.Type") that carries deliveries of a
// framework.
type Carrier struct {
	Type, Framework string
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
	if elem == "" || !rg.programType(elem) {
		return nil
	}
	if rg.depCarriers != nil {
		deps := rg.depCarriers()
		rg.depCarriers = nil
		if rg.carriers == nil {
			rg.carriers = map[string]*model.ReceiveChannel{}
		}
		for _, c := range deps {
			if rg.carriers[c.Type] == nil {
				rg.carriers[c.Type] = &model.ReceiveChannel{Framework: c.Framework, Element: c.Type, AutoAckArg: -1}
			}
		}
	}
	return rg.carriers[elem]
}

// findCarriers adds to rg.carriers the element types of the channels the delivery regions
// of nodes hand deliveries on to, and returns those it added, sorted. A relay of a carrier
// into a channel of another type makes that type a carrier too (to a fixpoint).
func (rg *regions) findCarriers(nodes []*callgraph.Node) []Carrier {
	if rg.carriers == nil {
		rg.carriers = map[string]*model.ReceiveChannel{}
	}
	own := map[string]string{}
	for changed := true; changed; {
		changed = false
		for _, n := range nodes {
			if n.Body == nil {
				continue
			}
			for _, s := range rg.handOffSites(n) {
				add := func(elem string) {
					if rg.carriers[elem] == nil {
						rg.carriers[elem] = &model.ReceiveChannel{Framework: s.framework, Element: elem, AutoAckArg: -1}
						own[elem], changed = s.framework, true
					}
				}
				ast.Inspect(s.block, func(x ast.Node) bool {
					if x == nil || x.Pos() < s.from || x.Pos() >= s.to {
						return x != nil && x.End() > s.from && x.Pos() < s.to
					}
					switch x := x.(type) {
					case *ast.FuncLit:
						return false
					case *ast.SendStmt:
						if elem := rg.handedOn(x, s.types); elem != "" {
							add(elem)
						}
					case *ast.CallExpr:
						// q.Push(d): a buffering type of the package whose method sends
						// what it is given on a channel its workers read.
						for _, elem := range rg.bufferedBy(x, s.types) {
							add(elem)
						}
					}
					return true
				})
			}
		}
	}
	var out []Carrier
	for _, t := range slices.Sorted(maps.Keys(own)) {
		out = append(out, Carrier{Type: t, Framework: own[t]})
	}
	return out
}

// handedOn returns the element type of the channel send sends a delivery on, when that
// type is the program's and no delivery channel yet, or "".
func (rg *regions) handedOn(send *ast.SendStmt, delivery map[string]bool) string {
	t := rg.info.TypeOf(send.Chan)
	elem := model.ChanElem(t)
	if elem == "" || !rg.programType(elem) || rg.deliveryChan(t) != nil || !rg.carries(send.Value, delivery, 0) {
		return ""
	}
	return elem
}

// bufferedBy returns the carriers a call of a function of the package makes when it is
// given a delivery and sends it on (q.Push(d), Push doing q.items <- d): its sends of
// what it was given, one call deep.
func (rg *regions) bufferedBy(call *ast.CallExpr, delivery map[string]bool) []string {
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
		given = given || rg.carries(a, delivery, 0)
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
			if elem := rg.handedOn(x, delivery); elem != "" {
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
		out = append(out, handOffSite{block: body, from: from, to: to, types: ts, framework: r.Framework})
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

// programPath reports whether the package path is not the standard library's: a path
// without a dot in its first element is taken for it unless that element is pkg's own (a
// module named "orders" has packages "orders/queue").
func programPath(path string, pkg *types.Package) bool {
	first, _, _ := strings.Cut(path, "/")
	own, _, _ := strings.Cut(pkg.Path(), "/")
	return !model.Standard(path) || first == own
}

// carries reports whether e holds a value of one of the delivery types (the delivery, a
// field of it, an element of its batch), not through the result of a call other than a
// conversion, through local variables up to two definitions deep.
func (rg *regions) carries(e ast.Expr, delivery map[string]bool, depth int) bool {
	found := false
	ast.Inspect(e, func(x ast.Node) bool {
		if found {
			return false
		}
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			return rg.info.Types[x.Fun].IsType() // a conversion carries its operand
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
					if rg.carries(d, delivery, depth+1) {
						found = true
						return false
					}
				}
			}
		}
		return true
	})
	return found
}

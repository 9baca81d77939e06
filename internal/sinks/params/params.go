// Package params reads the params a provider call is given (Stripe's, AWS's): a key field in
// the params literal, nested structs and every element of a batch, a key setter called on
// the params variable or the field assigned, a condition field that fails on a repeat
// (attribute_not_exists), and a DynamoDB update expression, an effect only when it adds to
// what is stored.
//
// Its input is a Reader (the package's def-use index and the models: key fields, condition
// fields, key setters) with the keys.Scope of the call; its output is the call's effect.Effect,
// made with the caller's keys.Make, each key found judged by package keys.
package params

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// Provider looks for an idempotency key on the params of a provider call: a key field
// in the params literal (in every element of a batch), a setter called on the params
// variable, or the field assigned. Each key found must be stable; the worst one decides.
func (rd Reader) Provider(mk keys.Make, s *model.Sink, params ast.Expr, sc keys.Scope) *effect.Effect {
	k := rd.providerKey(params)
	if k.state != litKeyed {
		e := mk(effect.Unprotected, s.Problem())
		if k.state == litPartial {
			e.Detail += " (" + k.missing + ")"
		}
		return e
	}
	if len(k.keys) == 0 { // guarded by conditions alone
		return mk(effect.Protected, s.What+" with a condition that fails on a repeat")
	}
	var worst *effect.Effect
	for _, key := range k.keys {
		e := rd.keys().Keyed(mk, s, key, true, sc)
		if worst == nil || e.Worse(*worst) {
			worst = e
		}
	}
	return worst
}

// litState says what a literal (or the value a local variable holds) tells about keys.
type litState uint8

const (
	litNone    litState = iota // no key anywhere in it
	litKeyed                   // a key, or every element of a batch has one
	litPartial                 // some elements of a batch have a key and some do not
)

// litKeys is what keysIn found: the key expressions (one per keyed batch element; none for
// an element guarded by a condition field) and, for a partly keyed batch, which element
// lacks one.
type litKeys struct {
	state   litState
	keys    []ast.Expr
	missing string
}

// condition is what a literal guarded by a condition field alone yields: keyed, no key.
var condition = litKeys{state: litKeyed}

func (rd Reader) providerKey(params ast.Expr) litKeys {
	if params == nil {
		return litKeys{}
	}
	info := rd.info()
	lit := rd.keysIn(params, 0)
	if lit.state == litKeyed {
		return lit
	}
	// A key set on the params variable itself (a setter, or the field assigned) counts even
	// when a batch inside it is only partly keyed: it is the key of the whole request.
	if v := rd.Defs.RootVar(params); v != nil {
		for _, c := range rd.Defs.CallsOn(v) {
			if fn, ok := typeutil.Callee(info, c).(*types.Func); ok && rd.Models.Of(fn).KeySetter && len(c.Args) > 0 {
				return litKeys{state: litKeyed, keys: []ast.Expr{c.Args[0]}}
			}
		}
		for _, as := range rd.Defs.FieldSets(v) {
			for i, l := range as.Lhs {
				sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
				if !ok || i >= len(as.Rhs) {
					continue
				}
				name := DeclaredField(rd.info(), sel)
				if rd.Models.Index.KeyField(name) {
					return litKeys{state: litKeyed, keys: []ast.Expr{as.Rhs[i]}}
				}
				if rd.conditionHolds(name, as.Rhs[i]) {
					return condition
				}
			}
		}
	}
	return lit
}

// keysIn finds key fields inside a (possibly nested, possibly &-taken) composite literal,
// &stripe.PaymentIntentParams{Params: stripe.Params{IdempotencyKey: k}}, following a local
// variable to the value assigned to it. In a slice or array the elements are a batch
// (SQS SendMessageBatch entries): it is keyed only when every element is, and partly keyed
// when some are; a batch in which no element is keyed says nothing (a list of tags). depth
// counts the literals it is nested in.
func (rd Reader) keysIn(e ast.Expr, depth int) litKeys {
	if e == nil || depth > defuse.MaxDepth {
		return litKeys{}
	}
	var out litKeys
	rd.Defs.Find(e, defuse.Value, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.Ident:
			if v, ok := rd.info().Uses[x].(*types.Var); ok && !v.IsField() {
				if t := rd.info().TypeOf(x); t != nil && isSliceType(t) {
					out = rd.batchKeys(rd.sliceElems(v), depth) // a batch built in steps
					return true
				}
			}
			return false // a variable: what it was assigned holds the keys
		case *ast.CompositeLit:
			out = rd.literalKeys(x, depth)
			return true
		}
		return false
	}, defuse.Through(func(x ast.Expr) []ast.Expr {
		if u, ok := x.(*ast.UnaryExpr); ok {
			return []ast.Expr{u.X} // &T{...}
		}
		return nil
	}))
	return out
}

// literalKeys finds the key fields of a struct literal, or of the elements of a slice or
// array literal (a batch).
func (rd Reader) literalKeys(lit *ast.CompositeLit, depth int) litKeys {
	t := rd.info().TypeOf(lit)
	if t == nil {
		return litKeys{}
	}
	switch defuse.Deref(t).Underlying().(type) {
	case *types.Struct:
		return rd.structKeys(lit, depth)
	case *types.Slice, *types.Array:
		elems := make([]ast.Expr, len(lit.Elts))
		for i, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				elt = kv.Value
			}
			elems[i] = elt
		}
		return rd.batchKeys(elems, depth)
	}
	return litKeys{}
}

// structKeys looks for a key field among a struct literal's fields, then inside its field
// values. A partly keyed batch inside it wins over a key nested elsewhere: the batch's
// unkeyed element is sent either way.
func (rd Reader) structKeys(lit *ast.CompositeLit, depth int) litKeys {
	t := rd.info().TypeOf(lit)
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && rd.Models.Index.KeyField(fieldName(t, id.Name)) {
				return litKeys{state: litKeyed, keys: []ast.Expr{kv.Value}}
			}
		}
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if id, ok := kv.Key.(*ast.Ident); ok && rd.conditionHolds(fieldName(t, id.Name), kv.Value) {
				return condition
			}
		}
	}
	var out litKeys
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch r := rd.keysIn(kv.Value, depth+1); {
		case r.state == litPartial:
			return r
		case r.state == litKeyed && out.state == litNone:
			out = r
		}
	}
	return out
}

// batchKeys judges the elements of a batch; a nil element is one not known (a value from
// a call, a spread slice), which counts as unkeyed.
func (rd Reader) batchKeys(elems []ast.Expr, depth int) litKeys {
	var out litKeys
	firstMissing, keyed := -1, 0
	for i, el := range elems {
		r := rd.keysIn(el, depth+1)
		if r.state == litKeyed {
			out.keys = append(out.keys, r.keys...)
			keyed++
			continue
		}
		if r.state == litPartial {
			return r
		}
		if firstMissing < 0 {
			firstMissing = i
		}
	}
	switch {
	case keyed == 0:
		return litKeys{}
	case firstMissing >= 0:
		return litKeys{state: litPartial, missing: fmt.Sprintf("element %d of %d of the batch has none", firstMissing+1, len(elems))}
	}
	out.state = litKeyed
	return out
}

func isSliceType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Slice)
	return ok
}

// sliceElems returns the elements put into the local slice variable v where it is built:
// the elements of the literals assigned to it and the values appended to it
// (v = append(v, x) in a loop). A value not known (the result of a call, a spread slice)
// is nil; make and nil add nothing.
func (rd Reader) sliceElems(v *types.Var) []ast.Expr {
	var elems []ast.Expr
	for _, d := range rd.Defs.Defs(v) {
		d = ast.Unparen(d)
		if id, ok := d.(*ast.Ident); ok && id.Name == "nil" {
			continue
		}
		switch x := d.(type) {
		case *ast.CompositeLit:
			for _, elt := range x.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					elt = kv.Value
				}
				elems = append(elems, elt)
			}
			continue
		case *ast.CallExpr:
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && len(x.Args) > 0 {
				if b, ok := rd.info().Uses[id].(*types.Builtin); ok {
					switch b.Name() {
					case "make":
						continue
					case "append":
						if x.Ellipsis.IsValid() {
							elems = append(elems, nil)
						} else {
							elems = append(elems, x.Args[1:]...)
						}
						switch base := ast.Unparen(x.Args[0]).(type) {
						case *ast.CompositeLit: // append([]T{a}, b)
							for _, elt := range base.Elts {
								elems = append(elems, elt)
							}
						case *ast.Ident:
							if base.Name != "nil" && rd.info().Uses[base] != v {
								elems = append(elems, nil) // appended to another slice
							}
						default:
							elems = append(elems, nil)
						}
						continue
					}
				}
			}
		}
		elems = append(elems, nil)
	}
	return elems
}

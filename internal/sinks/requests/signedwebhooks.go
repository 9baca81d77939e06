// Signed webhook deliveries. A service that sends webhooks to its customers signs each
// request for its receiver (an HMAC of the body in X-Webhook-Signature, X-Hub-Signature-256)
// and names the delivery in a header of its own (X-Forge-Delivery-ID, X-GitHub-Delivery,
// X-Webhook-Id). Its receivers are integrators who verify the signature by the sender's
// documentation, which is also where they learn to deduplicate on the delivery id: the
// contract Standard Webhooks writes down as webhook-id and webhook-signature. The delivery
// header of a signed request is therefore read as the Standard Webhooks one is. An unsigned
// request's own delivery header stays no key: a chat platform's incoming webhook, or any
// receiver that was never told of it, ignores it.

package requests

import (
	"go/ast"
	"go/types"
	"strings"
)

// header is one header set on a request variable: its name as the code writes it, and
// the value expression.
type header struct {
	name string
	val  ast.Expr
}

// headersSet returns the headers set on request variable v with a constant name:
// v.Header.Set(k, x) and Add, and the entries of a map of constant keys ranged over to set
// them (for k, x := range hdrs { v.Header.Set(k, x) }, with hdrs a literal and its index
// assignments).
func (rd Reader) headersSet(v *types.Var) []header {
	var out []header
	for _, c := range rd.Defs.CallsOn(v) {
		sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if (sel.Sel.Name != "Set" && sel.Sel.Name != "Add") || len(c.Args) != 2 || !isHeaderField(sel.X) {
			continue
		}
		if name := rd.Defs.ConstString(c.Args[0]); name != "" {
			out = append(out, header{name, c.Args[1]})
			continue
		}
		out = append(out, rd.rangedHeaders(c.Args[1])...)
	}
	return out
}

// rangedHeaders returns the entries of the map whose range gives val (the value variable
// of for k, val := range hdrs): hdrs's literal's constant keys, and the constant keys it is
// given after (hdrs["X-Signature"] = sig).
func (rd Reader) rangedHeaders(val ast.Expr) []header {
	id, ok := ast.Unparen(val).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := rd.info().Uses[id].(*types.Var)
	if v == nil {
		return nil
	}
	m, ok := ast.Unparen(rd.Defs.RangedOver(v)).(*ast.Ident)
	if !ok {
		return nil
	}
	mv, _ := rd.info().Uses[m].(*types.Var)
	if mv == nil {
		return nil
	}
	var out []header
	if lit, ok := ast.Unparen(rd.Defs.Def(mv)).(*ast.CompositeLit); ok {
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if name := rd.Defs.ConstString(kv.Key); name != "" {
					out = append(out, header{name, kv.Value})
				}
			}
		}
	}
	for _, as := range rd.Defs.FieldSets(mv) {
		for i, l := range as.Lhs {
			if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && i < len(as.Rhs) {
				if name := rd.Defs.ConstString(ix.Index); name != "" {
					out = append(out, header{name, as.Rhs[i]})
				}
			}
		}
	}
	return out
}

// signedDelivery returns the delivery header of a signed request among hs, or false: a
// header that names the delivery (deliveryName) beside one that carries a signature.
func signedDelivery(hs []header) (header, bool) {
	var delivery *header
	signed := false
	for i, h := range hs {
		n := strings.ToLower(h.name)
		signed = signed || strings.Contains(n, "signature")
		if delivery == nil && deliveryName(n) {
			delivery = &hs[i]
		}
	}
	if delivery == nil || !signed {
		return header{}, false
	}
	return *delivery, true
}

// deliveryName reports whether a header's name (lower case) names a webhook's delivery:
// past an "x-" prefix and the sender's name, it ends in delivery-id, delivery or
// webhook-id.
func deliveryName(n string) bool {
	n = strings.TrimPrefix(n, "x-")
	return strings.HasSuffix(n, "delivery-id") || strings.HasSuffix(n, "-delivery") ||
		n == "webhook-id" || strings.HasSuffix(n, "-webhook-id")
}

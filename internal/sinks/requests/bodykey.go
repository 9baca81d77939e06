package requests

import (
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// bodyKey is an idempotency key a request carries in its JSON body: json.Marshal of a value
// whose struct type has an IdempotencyKey field (Go name or JSON name idempotency_key,
// idempotencyKey, idempotency-key), as internal APIs and some providers take it, or a
// payment provider's merchant request number (out_trade_no, out_refund_no: keyName); a map
// with such a key too. Key is what judges it: the field's value in a literal, else the value
// marshalled (a job's input handed on whole carries the key its producer set).
type bodyKey struct {
	key   ast.Expr
	field string // "ChargeInput.IdempotencyKey", for messages
}

// bodyKeyOf finds the idempotency key field of the value a request body marshals, following
// the body's readers and conversions as bodyReads does.
func (rd Reader) bodyKeyOf(body ast.Expr) (bodyKey, bool) {
	info := rd.info()
	var out bodyKey
	found := false
	rd.Defs.Find(body, defuse.Value, func(x ast.Node) bool {
		c, ok := x.(*ast.CallExpr)
		if !ok {
			_, isIdent := x.(*ast.Ident)
			return !isIdent
		}
		if tv, ok := info.Types[c.Fun]; ok && tv.IsType() && len(c.Args) == 1 {
			return false
		}
		if reader(bodyFunc(info, c)) {
			return false
		}
		if bodyFunc(info, c) == "encoding/json.Marshal" {
			out, found = rd.keyField(defuse.ArgAt(c, 0))
		}
		return true
	}, throughOperand)
	return out, found
}

// bodyKeyed makes the effect of a request (what: "HTTP POST") whose JSON body carries the
// key k: the API takes its key in the body (an internal service, a provider's field), and
// it is judged as a header's value would be.
func (rd Reader) bodyKeyed(mk keys.Make, what string, k bodyKey, sc keys.Scope) *effect.Effect {
	if p := rd.keys().Judge([]ast.Expr{k.key}, sc); p.Problem != keys.Stable {
		return mk(effect.UnstableKey, "idempotency key in its body ("+k.field+") "+p.Because(""))
	}
	e := mk(effect.Protected, what+" with an idempotency key in its body ("+k.field+")")
	e.KeyParams = rd.keys().Params(k.key, sc)
	return e
}

// passKey judges, at a call of a function whose unprotected POST marshals its parameter
// (e.PayloadParam: a client's do(ctx, method, path, body any)), the body arg the caller
// passes there: one that carries a key (keyField) keys the POST, as a body marshalled where
// it is sent would; ok is false for any other.
func (rd Reader) passKey(arg ast.Expr, e effect.Effect, sc keys.Scope) (effect.Effect, bool) {
	if e.State != effect.Unprotected {
		return e, false
	}
	k, ok := rd.keyField(arg)
	if !ok {
		return e, false
	}
	what, _, _ := strings.Cut(e.Detail, " without an Idempotency-Key header")
	mk := func(st effect.State, detail string) *effect.Effect {
		c := e
		c.State, c.Detail = st, detail
		return &c
	}
	return *rd.bodyKeyed(mk, what, k, sc), true
}

// keyField returns the idempotency key field of the value v a body marshals, with the
// expression that judges it: for a struct, a field keyName accepts, its value in the literal
// v is made of (or set on its variable after), else v itself (a job's input handed on whole
// carries the key its producer set); for a map with string keys, the value given at a key
// keyName accepts, in its literal or set on its variable (m["out_trade_no"] = no).
func (rd Reader) keyField(v ast.Expr) (bodyKey, bool) {
	if v == nil {
		return bodyKey{}, false
	}
	t := rd.info().TypeOf(v)
	if t == nil {
		return bodyKey{}, false
	}
	lit, sets := rd.Defs.StructValue(v)
	switch u := defuse.Deref(t).Underlying().(type) {
	case *types.Struct:
		return rd.structKey(v, t, u, lit, sets)
	case *types.Map:
		if !defuse.IsString(u.Key()) {
			return bodyKey{}, false
		}
		if lit != nil {
			for _, elt := range lit.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if name := rd.Defs.ConstString(kv.Key); keyName(name) {
						return bodyKey{key: kv.Value, field: name}, true
					}
				}
			}
		}
		for _, as := range sets {
			for i, l := range as.Lhs {
				ix, ok := ast.Unparen(l).(*ast.IndexExpr)
				if !ok || i >= len(as.Rhs) {
					continue
				}
				if name := rd.Defs.ConstString(ix.Index); keyName(name) {
					return bodyKey{key: as.Rhs[i], field: name}, true
				}
			}
		}
	}
	return bodyKey{}, false
}

// structKey is keyField for a value v of struct type t (st its struct), made of lit (nil:
// not in view) and then given the field assignments sets.
func (rd Reader) structKey(v ast.Expr, t types.Type, st *types.Struct, lit *ast.CompositeLit, sets []*ast.AssignStmt) (bodyKey, bool) {
	named, _ := types.Unalias(defuse.Deref(t)).(*types.Named)
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		j, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		if !keyName(f.Name()) && !keyName(j) {
			continue
		}
		name := f.Name()
		if named != nil {
			name = named.Obj().Name() + "." + name
		}
		if lit == nil {
			return bodyKey{key: v, field: name}, true
		}
		fv, set := defuse.FieldValue(lit, f.Name())
		for _, as := range sets {
			for k, l := range as.Lhs {
				if rd.Defs.Field(l) == f && k < len(as.Rhs) {
					fv, set = as.Rhs[k], true
				}
			}
		}
		if !set {
			return bodyKey{}, false // the literal leaves the key empty
		}
		return bodyKey{key: fv, field: name}, true
	}
	return bodyKey{}, false
}

// clientOrderIDs name, normalised (lower case, without "_" and "-"), the client order ids of
// trading APIs, which refuse or return the first order for a repeated one (Alpaca's and
// Coinbase's client_order_id, Binance's newClientOrderId, OKX's clOrdId, KuCoin's clientOid).
var clientOrderIDs = []string{"clientorderid", "newclientorderid", "clordid", "clientoid"}

// keyName reports whether a body field (a Go field name or a JSON name) is an idempotency
// key the API deduplicates on: an idempotency key (idempotency_key, IdempotencyKey), a
// merchant's request number of the WeChat Pay and Alipay family, whose first word is out and
// last no (out_trade_no, out_refund_no, out_bill_no, out_request_no, OutBatchNo: the APIs
// answer a repeated number with the first request's result), or a client order id.
func keyName(name string) bool {
	norm := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
	if norm == "idempotencykey" || slices.Contains(clientOrderIDs, norm) {
		return true
	}
	w := words(name)
	return len(w) >= 3 && w[0] == "out" && w[len(w)-1] == "no"
}

// words splits a name in snake, kebab or camel case into its lower-case words.
func words(name string) []string {
	var out []string
	cur := []rune{}
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range name {
		switch {
		case r == '_' || r == '-':
			flush()
		case unicode.IsUpper(r):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// POSTs that read by the shape of their JSON body. A body that says how many items a page
// holds and where it starts (limit and offset, a cursor, the last id seen, a page token)
// asks for one page of a list: marketplace, analytics and search APIs take their filter in
// a POST body this way (Ozon's /v1/analytics/data with limit and offset, a
// /v3/posting/list with last_id), and a repeat asks for the same page again. A body that
// names a model and gives it messages, an input or a prompt asks a language or embedding
// model for an answer (OpenAI's /responses and /chat/completions, Ollama's /api/embed,
// Anthropic's /v1/messages), wherever the API is served: a repeat costs a second answer and
// changes nothing the job owns. A write does neither.

package requests

import (
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/sinks/keys"
)

// pageSizes and pagePlaces name, normalised (lower case, without "_" and "-"), the fields of
// a request body that say how many items a page holds and where it starts. A body pages
// only with one of each: a limit alone may be a setting written ({"limit": 100} to a quota
// endpoint), a page alone a document's page.
var (
	pageSizes  = []string{"limit", "pagesize", "perpage", "maxresults", "take"}
	pagePlaces = []string{"offset", "cursor", "lastid", "page", "pagenumber", "pagetoken", "nextpagetoken",
		"startcursor", "after", "searchafter", "skip"}
)

// modelInputs name, normalised, what a body gives the model it names (a "model" field):
// chat messages, an input to embed or answer, a prompt, Gemini's contents.
var modelInputs = []string{"messages", "input", "prompt", "contents"}

// readingNames reports whether the top-level field names of a body say it reads: a page
// size with a page place, or a model with what to give it.
func readingNames(names []string) bool {
	size, place, model, input := false, false, false, false
	for _, n := range names {
		n = strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(n))
		size = size || slices.Contains(pageSizes, n)
		place = place || slices.Contains(pagePlaces, n)
		model = model || n == "model"
		input = input || slices.Contains(modelInputs, n)
	}
	return size && place || model && input
}

// typeReads reports whether values of type t (a struct, or a pointer to one) marshal to a
// JSON object that reads (readingNames of its fields' JSON names: the json tag's, else the
// field's). Fields of embedded structs count, as encoding/json flattens them.
func typeReads(t types.Type) bool {
	return readingNames(jsonFields(t, 0))
}

// jsonFields returns the JSON names of the fields of t (a struct, or a pointer to one), of
// embedded structs too (to depth 2); nil for any other type, or none known.
func jsonFields(t types.Type, depth int) []string {
	if t == nil || depth > 2 {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var names []string
	for i := range st.NumFields() {
		f := st.Field(i)
		name, _, _ := strings.Cut(reflect.StructTag(st.Tag(i)).Get("json"), ",")
		switch {
		case name == "-":
		case f.Embedded() && name == "":
			names = append(names, jsonFields(f.Type(), depth+1)...)
		case !f.Exported():
			// encoding/json leaves unexported fields out, tagged or not
		case name != "":
			names = append(names, name)
		default:
			names = append(names, f.Name())
		}
	}
	return names
}

// valueReads reports whether the value e that a body marshals reads by its shape: its type
// does (typeReads), or it is a map literal, or a variable defined by one and then given
// keys (m["offset"] = n), whose constant keys do (readingNames).
func (rd Reader) valueReads(e ast.Expr) bool {
	if typeReads(rd.info().TypeOf(e)) {
		return true
	}
	var names []string
	lit, v := rd.literalOf(e)
	if v != nil {
		for _, as := range rd.Defs.FieldSets(v) {
			for _, l := range as.Lhs {
				if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
					names = append(names, rd.Defs.ConstString(ix.Index))
				}
			}
		}
	}
	if lit == nil {
		return readingNames(names)
	}
	if typeReads(rd.info().TypeOf(lit)) {
		return true
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			names = append(names, rd.Defs.ConstString(kv.Key))
		}
	}
	return readingNames(names)
}

// PayloadParam returns 1 + the index of the parameter of sc's function, of an interface
// type and never assigned, that a JSON body is json.Marshal of (a client's do(ctx, path,
// payload any)), or 0: its callers' arguments say whether it reads by its shape (PassReads).
func (rd Reader) PayloadParam(body ast.Expr, sc keys.Scope) int {
	if sc.Func == nil {
		return 0
	}
	id, ok := ast.Unparen(rd.marshalledArg(body)).(*ast.Ident)
	if !ok {
		return 0
	}
	v, _ := rd.info().Uses[id].(*types.Var)
	if v == nil || !types.IsInterface(v.Type()) || len(rd.Defs.Defs(v)) != 0 {
		return 0
	}
	return keys.ParamIndex(sc, v)
}

// passPayload judges, at a call of a function whose POST marshals its parameter i, what
// the caller passes there: a value that reads by its shape (valueReads) or by the body
// rules (literalReads) makes the POST no effect (reads true); the caller's own interface
// parameter passes the question on (p, 1 + its index).
func (rd Reader) passPayload(arg ast.Expr, sc keys.Scope) (reads bool, p int) {
	if rd.valueReads(arg) || rd.literalReads(arg) {
		return true, 0
	}
	if id, ok := ast.Unparen(arg).(*ast.Ident); ok && sc.Func != nil {
		if v, _ := rd.info().Uses[id].(*types.Var); v != nil && types.IsInterface(v.Type()) && len(rd.Defs.Defs(v)) == 0 {
			return false, keys.ParamIndex(sc, v)
		}
	}
	return false, 0
}

// marshalledArg returns the value a request body is json.Marshal of (through the readers
// of reader, conversions and local variables), or nil.
func (rd Reader) marshalledArg(body ast.Expr) ast.Expr {
	if body == nil {
		return nil
	}
	var arg ast.Expr
	rd.Defs.Find(body, defuse.Value, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.Ident:
			return false
		case *ast.CallExpr:
			if tv, ok := rd.info().Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
				return false // []byte(s), string(b)
			}
			if reader(bodyFunc(rd.info(), x)) {
				return false // strings.NewReader(string(b)): its operand
			}
			if bodyFunc(rd.info(), x) == "encoding/json.Marshal" {
				arg = defuse.ArgAt(x, 0)
			}
		}
		return true
	}, throughOperand)
	return arg
}

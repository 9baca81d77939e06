// POSTs that page: a JSON body that says how many items a page holds and where it starts
// (limit and offset, a cursor, the last id seen, a page token) asks for one page of a list.
// Marketplace, analytics and search APIs take their filter in a POST body this way (Ozon's
// /v1/analytics/data with limit and offset, a /v3/posting/list with last_id): a repeat asks
// for the same page again and changes nothing. A write does not page what it writes.

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

// pagedNames reports whether the top-level field names of a body hold a page size and a
// page place.
func pagedNames(names []string) bool {
	size, place := false, false
	for _, n := range names {
		n = strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(n))
		size = size || slices.Contains(pageSizes, n)
		place = place || slices.Contains(pagePlaces, n)
	}
	return size && place
}

// typePages reports whether values of type t (a struct, or a pointer to one) marshal to a
// JSON object that pages: its fields' JSON names (the json tag's, else the field's) hold a
// page size and a page place. Fields of embedded structs count, as encoding/json
// flattens them.
func typePages(t types.Type) bool {
	return pagedNames(jsonFields(t, 0))
}

// jsonFields returns the JSON names of the fields of t (a struct, or a pointer to one), of
// embedded structs too (to depth 2).
func jsonFields(t types.Type, depth int) []string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || depth > 2 {
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
		case name != "":
			names = append(names, name)
		case f.Exported():
			names = append(names, f.Name())
		}
	}
	return names
}

// valuePages reports whether the value e that a body marshals pages: its type does
// (typePages), or it is a map literal, or a variable defined by one and then given keys
// (m["offset"] = n), whose constant keys do.
func (rd Reader) valuePages(e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok {
		e = ast.Unparen(u.X)
	}
	if typePages(rd.info().TypeOf(e)) {
		return true
	}
	var names []string
	lit, _ := e.(*ast.CompositeLit)
	v := rd.Defs.RootVar(e)
	if v != nil && rd.Defs.Def(v) != nil {
		lit, _ = ast.Unparen(rd.Defs.Def(v)).(*ast.CompositeLit)
		for _, as := range rd.Defs.FieldSets(v) {
			for _, l := range as.Lhs {
				if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
					names = append(names, rd.Defs.ConstString(ix.Index))
				}
			}
		}
	}
	if lit == nil {
		return pagedNames(names)
	}
	if typePages(rd.info().TypeOf(lit)) {
		return true
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			names = append(names, rd.Defs.ConstString(kv.Key))
		}
	}
	return pagedNames(names)
}

// PayloadParam returns 1 + the index of the parameter of sc's function, of an interface
// type and never assigned, that a JSON body is json.Marshal of (a client's do(ctx, path,
// payload any)), or 0: its callers' arguments say whether it pages (PassReads).
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
// the caller passes there: a value that pages, or that reads by the body rules
// (literalReads), makes the POST no effect (reads true); the caller's own interface
// parameter passes the question on (p, 1 + its index).
func (rd Reader) passPayload(arg ast.Expr, sc keys.Scope) (reads bool, p int) {
	if rd.valuePages(arg) || rd.literalReads(arg) {
		return true, 0
	}
	if id, ok := ast.Unparen(arg).(*ast.Ident); ok && sc.Func != nil {
		if v, _ := rd.info().Uses[id].(*types.Var); v != nil && types.IsInterface(v.Type()) && len(rd.Defs.Defs(v)) == 0 {
			return false, keys.ParamIndex(sc, v)
		}
	}
	return false, 0
}

// marshalledArg returns the value a request body is json.Marshal of (through readers,
// conversions and local variables), or nil.
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
				return false // []byte(s)
			}
			switch bodyFunc(rd.info(), x) {
			case "bytes.NewReader", "bytes.NewBuffer", "io.NopCloser":
				return false
			case "encoding/json.Marshal":
				arg = defuse.ArgAt(x, 0)
			}
		}
		return true
	}, defuse.Through(func(x ast.Expr) []ast.Expr {
		if c, ok := x.(*ast.CallExpr); ok && len(c.Args) > 0 {
			return []ast.Expr{c.Args[0]}
		}
		return nil
	}))
	return arg
}

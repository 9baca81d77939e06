// Package defuse indexes the local definitions and uses of one package's variables, for the
// stages that judge a call by how its arguments were built: which expressions were assigned
// to a variable, which methods were called on it, which of its fields were set, and which
// calls were given its address. It also answers the small constant questions those stages
// ask of expressions (a constant string, a constant int, false).
//
// The index is flow-insensitive on purpose: the rules ask "was the header set on this
// request", not "on every path". Following definitions is done by one function, Find, with
// one depth limit, so every stage sees the same reach.
package defuse

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/chokaq/idemlint/internal/strval"
)

// MaxDepth bounds how many assignments Find follows from an expression: deep enough for
// a builder assigned in steps (b := x.A(); c := b.B(); c.Exec()), shallow enough to stay
// cheap on large functions.
const MaxDepth = 4

// Index holds one package's local definitions and uses.
type Index struct {
	Info *types.Info
	pkg  *types.Package

	defs map[*types.Var][]ast.Expr // v = x, v := x, var v = x (nil: op-assign or a second result)
	// callsOn maps a variable to the calls made on it (v.M(...), v.F.M(...)).
	callsOn map[*types.Var][]*ast.CallExpr
	// fieldSets maps a variable to assignments of its fields (v.F = x, v.H["k"] = x).
	fieldSets map[*types.Var][]*ast.AssignStmt
	// fills maps a variable to the calls given its address, which fill it in:
	// json.Unmarshal(t.Payload(), &p) makes p from the task.
	fills map[*types.Var][]*ast.CallExpr
	// ranged maps the value variable of a range statement to the expression it ranges over
	// (for _, s := range stmts).
	ranged map[*types.Var]ast.Expr
	// fieldDefs maps a struct field to the expressions assigned to it anywhere in the
	// package (s.stmt, err = db.Prepare(q)), and to the values paired with its address in a
	// two-element literal ({&s.stmt, q}: a list of statements prepared in a loop).
	fieldDefs map[*types.Var][]ast.Expr
	// passes maps a local variable to the calls it is a direct argument of (queue(b, stmts)).
	passes map[*types.Var][]*ast.CallExpr
	// decls maps the package's functions and methods to their declarations.
	decls map[*types.Func]*ast.FuncDecl
	// fallbacks are the values a local variable is given only when it was empty: x of
	// `if v == "" { v = x }` (Fallback).
	fallbacks map[ast.Expr]bool
}

// Build indexes the files of pkg.
func Build(pkg *types.Package, info *types.Info, files []*ast.File) *Index {
	ix := &Index{
		Info:      info,
		pkg:       pkg,
		defs:      map[*types.Var][]ast.Expr{},
		callsOn:   map[*types.Var][]*ast.CallExpr{},
		fieldSets: map[*types.Var][]*ast.AssignStmt{},
		fills:     map[*types.Var][]*ast.CallExpr{},
		ranged:    map[*types.Var]ast.Expr{},
		fieldDefs: map[*types.Var][]ast.Expr{},
		passes:    map[*types.Var][]*ast.CallExpr{},
		decls:     map[*types.Func]*ast.FuncDecl{},
		fallbacks: map[ast.Expr]bool{},
	}
	for _, f := range files {
		ast.Inspect(f, ix.visit)
	}
	return ix
}

// local returns the local variable e names, or nil (a field, a package variable).
func (ix *Index) local(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := ix.Info.ObjectOf(id).(*types.Var)
	if v == nil || v.IsField() || v.Parent() == ix.pkg.Scope() || v.Parent() == nil {
		return nil
	}
	return v
}

func (ix *Index) visit(x ast.Node) bool {
	switch x := x.(type) {
	case *ast.FuncDecl:
		if fn, ok := ix.Info.Defs[x.Name].(*types.Func); ok && x.Body != nil {
			ix.decls[fn] = x
		}
	case *ast.AssignStmt:
		ix.assign(x)
	case *ast.IfStmt:
		ix.fallback(x)
	case *ast.CompositeLit:
		ix.pairedField(x)
	case *ast.RangeStmt:
		elem := x.Value
		if _, ok := ix.Info.TypeOf(x.X).(*types.Chan); ok && elem == nil {
			elem = x.Key // for d := range msgs: over a channel the key is the element
		}
		if elem != nil {
			if v := ix.local(elem); v != nil {
				ix.ranged[v] = x.X
			}
		}
	case *ast.ValueSpec:
		for i, name := range x.Names {
			v, _ := ix.Info.Defs[name].(*types.Var)
			if v == nil {
				continue
			}
			switch {
			case len(x.Values) == len(x.Names):
				ix.defs[v] = append(ix.defs[v], x.Values[i])
			case len(x.Values) == 1 && i == 0:
				ix.defs[v] = append(ix.defs[v], x.Values[0])
			}
		}
	case *ast.CallExpr:
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
			if v := RootVar(ix.Info, sel.X); v != nil {
				ix.callsOn[v] = append(ix.callsOn[v], x)
			}
		}
		for _, arg := range x.Args {
			if v := ix.local(arg); v != nil {
				ix.passes[v] = append(ix.passes[v], x)
			}
			if u, ok := ast.Unparen(arg).(*ast.UnaryExpr); ok && u.Op == token.AND {
				if v := ix.local(u.X); v != nil {
					ix.fills[v] = append(ix.fills[v], x)
				}
			}
		}
	}
	return true
}

// field returns the struct field e selects (s.stmt), or nil.
func (ix *Index) field(e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s, ok := ix.Info.Selections[sel]; ok && s.Kind() == types.FieldVal {
		v, _ := s.Obj().(*types.Var)
		return v
	}
	return nil
}

// pairedField records {&s.f, v}: a two-element literal that gives a field's address and the
// value meant for it.
func (ix *Index) pairedField(lit *ast.CompositeLit) {
	if len(lit.Elts) != 2 {
		return
	}
	for i, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			e = kv.Value
		}
		u, ok := ast.Unparen(e).(*ast.UnaryExpr)
		if !ok || u.Op != token.AND {
			continue
		}
		if f := ix.field(u.X); f != nil {
			other := lit.Elts[1-i]
			if kv, ok := other.(*ast.KeyValueExpr); ok {
				other = kv.Value
			}
			ix.fieldDefs[f] = append(ix.fieldDefs[f], other)
		}
	}
}

func (ix *Index) assign(x *ast.AssignStmt) {
	if x.Tok == token.ASSIGN || x.Tok == token.DEFINE {
		for i, l := range x.Lhs {
			if f := ix.field(l); f != nil && (len(x.Rhs) == len(x.Lhs) || len(x.Rhs) == 1 && i == 0) {
				ix.fieldDefs[f] = append(ix.fieldDefs[f], x.Rhs[min(i, len(x.Rhs)-1)])
			}
		}
	}
	switch {
	case len(x.Lhs) == len(x.Rhs):
		for i, l := range x.Lhs {
			if v := ix.local(l); v != nil {
				if x.Tok == token.ASSIGN || x.Tok == token.DEFINE {
					ix.defs[v] = append(ix.defs[v], x.Rhs[i])
				} else {
					ix.defs[v] = append(ix.defs[v], nil) // x op= y: no single value
				}
			} else if v := RootVar(ix.Info, l); v != nil {
				ix.fieldSets[v] = append(ix.fieldSets[v], x)
			}
		}
	case len(x.Rhs) == 1:
		// v, err := f(): the call defines the first variable; v.F, err = f() sets v's field.
		if v := ix.local(x.Lhs[0]); v != nil {
			ix.defs[v] = append(ix.defs[v], x.Rhs[0])
		} else if v := RootVar(ix.Info, x.Lhs[0]); v != nil {
			ix.fieldSets[v] = append(ix.fieldSets[v], x)
		}
		for _, l := range x.Lhs[1:] {
			if v := ix.local(l); v != nil {
				ix.defs[v] = append(ix.defs[v], nil)
			}
		}
	}
}

// fallback records the value of `if v == "" { v = x }` (also len(v) == 0, v == nil, with
// no else): what v is given only when it was empty, a default for a value that is
// missing.
func (ix *Index) fallback(ifs *ast.IfStmt) {
	if ifs.Else != nil || ifs.Init != nil || len(ifs.Body.List) != 1 {
		return
	}
	as, ok := ifs.Body.List[0].(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return
	}
	v := ix.local(as.Lhs[0])
	if v == nil || ix.emptyTest(ifs.Cond) != v {
		return
	}
	ix.fallbacks[as.Rhs[0]] = true
}

// emptyTest returns the local variable cond tests to be empty (v == "", "" == v,
// len(v) == 0, v == nil), or nil.
func (ix *Index) emptyTest(cond ast.Expr) *types.Var {
	be, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || be.Op != token.EQL {
		return nil
	}
	for _, pair := range [][2]ast.Expr{{be.X, be.Y}, {be.Y, be.X}} {
		x, empty := pair[0], pair[1]
		tv := ix.Info.Types[empty]
		switch {
		case tv.IsNil(), tv.Value != nil && tv.Value.ExactString() == `""`:
			if v := ix.local(x); v != nil {
				return v
			}
		case tv.Value != nil && tv.Value.ExactString() == "0":
			if c, ok := ast.Unparen(x).(*ast.CallExpr); ok && len(c.Args) == 1 {
				if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "len" {
					if v := ix.local(c.Args[0]); v != nil {
						return v
					}
				}
			}
		}
	}
	return nil
}

// Fallback reports whether e is a value a local variable is given only when it was empty
// (`if id == "" { id = fmt.Sprintf("cf-%d", time.Now().UnixNano()) }`): a default for a
// missing value, which says nothing of the value the variable has otherwise.
func (ix *Index) Fallback(e ast.Expr) bool { return ix.fallbacks[e] }

// Decl returns the declaration, with a body, of a function or method of the package (its
// generic origin's), or nil.
func (ix *Index) Decl(fn *types.Func) *ast.FuncDecl { return ix.decls[fn.Origin()] }

// Returned returns the one result of every return statement of a function body (not in its
// literals), in order; ok is false when a return statement has none or several (a bare
// return of named results).
func Returned(body *ast.BlockStmt) (results []ast.Expr, ok bool) {
	ok = true
	ast.Inspect(body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(x.Results) != 1 {
				ok = false
			} else {
				results = append(results, x.Results[0])
			}
		}
		return ok
	})
	return results, ok
}

// Defs returns the expressions assigned to v (nil entries: a value not known).
func (ix *Index) Defs(v *types.Var) []ast.Expr { return ix.defs[v] }

// StructField is the value a struct value e's field is given: in its composite literal
// (given directly, by address, or defined once in a local variable), or assigned to the
// variable's field; nil when none is in view.
func (ix *Index) StructField(e ast.Expr, field string) ast.Expr {
	lit, sets := ix.StructValue(e)
	for _, a := range sets {
		for i, l := range a.Lhs {
			if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && sel.Sel.Name == field && len(a.Lhs) == len(a.Rhs) {
				return a.Rhs[i]
			}
		}
	}
	if lit == nil {
		return nil
	}
	if v, ok := FieldValue(lit, field); ok {
		return v
	}
	return nil
}

// StructValue returns the composite literal a struct value e is made of (given directly, by
// address, or defined once in a local variable, itself possibly by address) and, for a
// variable, the assignments to its fields (returned even when no literal defines it); lit
// is nil when no literal is in view.
func (ix *Index) StructValue(e ast.Expr) (lit *ast.CompositeLit, sets []*ast.AssignStmt) {
	addressed := func(e ast.Expr) ast.Expr {
		e = ast.Unparen(e)
		if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
			return ast.Unparen(u.X)
		}
		return e
	}
	e = addressed(e)
	if id, ok := e.(*ast.Ident); ok {
		v, _ := ix.Info.Uses[id].(*types.Var)
		if v == nil {
			return nil, nil
		}
		sets = ix.FieldSets(v)
		if e = ix.Def(v); e == nil {
			return nil, sets
		}
		e = addressed(e)
	}
	lit, _ = e.(*ast.CompositeLit)
	return lit, sets
}

// Def returns the single expression assigned to v, or nil when there is none or several.
func (ix *Index) Def(v *types.Var) ast.Expr {
	if ds := ix.defs[v]; len(ds) == 1 {
		return ds[0]
	}
	return nil
}

// RangedOver returns what v is the value variable of a range over (the element variable of
// a range over a channel), or nil. The variable is not among the ones Def follows: it takes
// every element in turn.
func (ix *Index) RangedOver(v *types.Var) ast.Expr { return ix.ranged[v] }

// FieldDefs returns what the package assigns to the struct field f, or pairs with its
// address in a two-element literal ({&s.stmt, q}).
func (ix *Index) FieldDefs(f *types.Var) []ast.Expr { return ix.fieldDefs[f] }

// Field returns the struct field e selects, or nil.
func (ix *Index) Field(e ast.Expr) *types.Var { return ix.field(e) }

// CallsOn returns the calls made on v or on a field or element of it.
func (ix *Index) CallsOn(v *types.Var) []*ast.CallExpr { return ix.callsOn[v] }

// Passes returns the calls v is a direct argument of (f(v), x.M(a, v)), in source order.
func (ix *Index) Passes(v *types.Var) []*ast.CallExpr { return ix.passes[v] }

// FieldSets returns the assignments to fields or elements of v.
func (ix *Index) FieldSets(v *types.Var) []*ast.AssignStmt { return ix.fieldSets[v] }

// Fills returns the calls given v's address.
func (ix *Index) Fills(v *types.Var) []*ast.CallExpr { return ix.fills[v] }

// RootVar returns the variable at the root of a selector or index chain (v in
// v.Header.Set, v.Params.IdempotencyKey, v.Header["k"]), or nil.
func RootVar(info *types.Info, e ast.Expr) *types.Var {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.UnaryExpr:
			e = x.X
		case *ast.Ident:
			v, _ := info.ObjectOf(x).(*types.Var)
			if v == nil || v.IsField() {
				return nil
			}
			return v
		default:
			return nil
		}
	}
}

// RootVar is RootVar in this index's package.
func (ix *Index) RootVar(e ast.Expr) *types.Var { return RootVar(ix.Info, e) }

// maxChain bounds the calls ChainCalls follows down a receiver chain.
const maxChain = 32

// ChainCalls calls f with each method call down the receiver chain of x, a builder's (x
// itself when it is one, then the call it is made on, and so on: db.Model(m).Where(...)
// gives Where, then Model), with the method's name, following a variable to the value it was
// assigned once (q := db.Where(...); q.Update(...)). It stops at anything else, or after
// maxChain calls.
func (ix *Index) ChainCalls(x ast.Expr, f func(c *ast.CallExpr, name string)) {
	for range maxChain {
		x = ast.Unparen(x)
		if id, ok := x.(*ast.Ident); ok {
			if v := ix.RootVar(id); v != nil && ix.Def(v) != nil {
				x = ast.Unparen(ix.Def(v))
			}
		}
		c, ok := x.(*ast.CallExpr)
		if !ok {
			return
		}
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return
		}
		f(c, sel.Sel.Name)
		x = sel.X
	}
}

// Follow says what Find follows besides the definitions of the variables it meets, and how.
type Follow uint8

// What Find may follow; 0 follows definitions alone.
const (
	// Fills follows the calls given the variable's address (json.Unmarshal(b, &p)).
	Fills Follow = 1 << iota
	// Calls follows the calls made on the variable (opts.Add(asynq.TaskID(k))).
	Calls
	// Fields follows a struct field the package assigns exactly once (or pairs once with its
	// address, {&s.stmt, q}) to that value: a statement prepared into a field at start-up
	// and executed in a handler is found through it.
	Fields
	// Value makes Find follow the value an expression holds rather than every node in it:
	// match sees the expression and, where it names a variable, that variable's single
	// definition (a variable assigned twice holds no one value), and then only the
	// sub-expressions that Through names, not the other nodes inside. The stages that read
	// one value along its way need it (the claim a condition tests, the text a statement
	// was prepared from, the body a request sends): a gate call somewhere inside an argument
	// is not the value tested. Fills and Calls are not followed in this mode.
	Value
	// Ranged follows the value variable of a range statement to what it ranges over (for
	// _, r := range rows: r's fields are rows' elements), outside Value mode.
	Ranged
)

// An Option tells Find more about the value it follows, for the followers that need more
// than the index knows.
type Option func(*finder)

// Through names, for Value, the sub-expressions of a node that carry its value on (the
// command whose Val() holds a claim, the operand of a []byte conversion, the receiver and
// arguments of a call made on a transaction). Steps into a sub-expression are not counted
// against MaxDepth, only definitions are: the syntax is finite, definitions may loop.
func Through(step func(ast.Expr) []ast.Expr) Option {
	return func(f *finder) { f.step = step }
}

// Skip names, outside Value, the nodes whose insides Find does not look into once match
// has not held for them: what a read from outside the program returns is not made of the
// arguments it was read with. A finder has one: a later Skip replaces an earlier one, so
// give one function that answers for all.
func Skip(skip func(ast.Node) bool) Option {
	return func(f *finder) { f.skip = skip }
}

// At gives, for Value, the definition of a variable in view where it is read, in place of
// its single definition in the package: a stage that reads a condition knows which
// assignment comes just before it (ok, err := ...; if !ok), which the index, flow-insensitive
// on purpose, does not.
func At(def func(*types.Var) ast.Expr) Option {
	return func(f *finder) { f.def = def }
}

// Find reports whether match holds for a node of e or of what the local variables e uses
// were built from, up to MaxDepth assignments deep, each variable visited once: "is the
// builder this call ends made with OnConflict", "was this middleware built with
// WithRetention". follow adds the uses to look at beside the definitions; with Value, Find
// follows one value instead (see Value, Through and At). A match that computes an answer
// keeps it in its closure and returns true to stop.
func (ix *Index) Find(e ast.Expr, follow Follow, match func(ast.Node) bool, opts ...Option) bool {
	f := finder{ix: ix, follow: follow, match: match, seen: map[*types.Var]bool{}}
	for _, o := range opts {
		o(&f)
	}
	f.look(e, 0)
	return f.found
}

// finder is one run of Find.
type finder struct {
	ix     *Index
	follow Follow
	match  func(ast.Node) bool
	step   func(ast.Expr) []ast.Expr // Through
	def    func(*types.Var) ast.Expr // At
	skip   func(ast.Node) bool       // Skip
	seen   map[*types.Var]bool
	found  bool
}

func (f *finder) look(e ast.Expr, depth int) {
	if f.found || e == nil || depth > MaxDepth {
		return
	}
	if f.follow&Value != 0 {
		f.value(ast.Unparen(e), depth)
		return
	}
	ast.Inspect(e, func(x ast.Node) bool {
		if f.found {
			return false
		}
		if f.match(x) {
			f.found = true
			return false
		}
		if f.skip != nil && x != nil && f.skip(x) {
			return false
		}
		switch x := x.(type) {
		case *ast.Ident:
			v, ok := f.ix.Info.Uses[x].(*types.Var)
			if !ok || v.IsField() || f.seen[v] {
				return true
			}
			f.seen[v] = true
			for _, d := range f.ix.defs[v] {
				f.look(d, depth+1)
			}
			if f.follow&Fills != 0 {
				for _, c := range f.ix.fills[v] {
					f.look(c, depth+1)
				}
			}
			if f.follow&Calls != 0 {
				for _, c := range f.ix.callsOn[v] {
					f.look(c, depth+1)
				}
			}
			if f.follow&Ranged != 0 {
				if over := f.ix.ranged[v]; over != nil {
					f.look(over, depth+1)
				}
			}
		case *ast.SelectorExpr:
			if d := f.fieldDef(x); d != nil {
				f.look(d, depth+1)
			}
		}
		return true
	})
}

// value follows the value e holds (Value).
func (f *finder) value(e ast.Expr, depth int) {
	if f.match(e) {
		f.found = true
		return
	}
	switch x := e.(type) {
	case *ast.Ident:
		v, ok := f.ix.Info.Uses[x].(*types.Var)
		if !ok || v.IsField() || f.seen[v] {
			return
		}
		f.seen[v] = true
		if f.def != nil {
			f.look(f.def(v), depth+1)
		} else {
			f.look(f.ix.Def(v), depth+1)
		}
		return
	case *ast.SelectorExpr:
		if d := f.fieldDef(x); d != nil {
			f.look(d, depth+1)
			return
		}
	}
	if f.step != nil {
		for _, s := range f.step(e) {
			f.look(s, depth)
		}
	}
}

// fieldDef returns, for Fields, the one value the package gives the field e selects, or nil.
func (f *finder) fieldDef(e *ast.SelectorExpr) ast.Expr {
	if f.follow&Fields == 0 {
		return nil
	}
	if fd := f.ix.fieldDefs[f.ix.field(e)]; len(fd) == 1 {
		return fd[0]
	}
	return nil
}

// Text reconstructs the string e holds, with strval.Hole for the parts not known.
func (ix *Index) Text(e ast.Expr) string {
	return strval.Text(ix.Info, e, ix.Def)
}

// ConstString returns the constant string e is, or the variable it names was assigned once;
// "" otherwise.
func (ix *Index) ConstString(e ast.Expr) string {
	if e == nil {
		return ""
	}
	if tv, ok := ix.Info.Types[e]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
		return constant.StringVal(tv.Value)
	}
	if v := ix.RootVar(e); v != nil {
		if d := ix.Def(v); d != nil && d != e {
			if tv, ok := ix.Info.Types[d]; ok && tv.Value != nil && tv.Value.Kind() == constant.String {
				return constant.StringVal(tv.Value)
			}
		}
	}
	return ""
}

// IsEmptyString reports whether e is the constant "".
func (ix *Index) IsEmptyString(e ast.Expr) bool {
	tv, ok := ix.Info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.String && constant.StringVal(tv.Value) == ""
}

// IsTrue reports whether e is the constant true.
func (ix *Index) IsTrue(e ast.Expr) bool {
	tv, ok := ix.Info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
}

// IsFalse reports whether e is the constant false.
func (ix *Index) IsFalse(e ast.Expr) bool {
	tv, ok := ix.Info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && !constant.BoolVal(tv.Value)
}

// ConstInt returns the exact constant integer e is.
func (ix *Index) ConstInt(e ast.Expr) (int, bool) {
	if e == nil {
		return 0, false
	}
	tv, ok := ix.Info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	n, exact := constant.Int64Val(tv.Value)
	return int(n), exact
}

// Claims made through an ORM's builder: a conditional update whose chain tests the column it
// sets (gorm's db.Model(&Job{}).Where("id = ? AND status = ?", id, "pending").Update("status",
// "running"), bun's NewUpdate().Set(...).Where(...).Exec(ctx), ent's UpdateOneID(id).Where(
// job.StatusEQ(job.StatusPending)).SetStatus(job.StatusRunning)) changes no row the second
// time, as the statement it builds would. The chain is written as that statement, with its
// constant arguments in place, and judged as SQL text is (gateStatement); its zero affected
// rows (gorm's RowsAffected field, bun's result, ent's count) or ent's not-found error, checked
// with an early return, is the claim failing.

package gates

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"unicode"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/schema"
)

// ormChain is an update statement read from a builder chain: its SET and WHERE parts as SQL,
// and whether a condition's value is not constant (the job's key, in a claim of its row).
type ormChain struct {
	set, where []string
	keyed      bool
	binds      int // the binds written so far, to number the next
}

// ormGateCall returns the claim an ORM update call makes when the statement its chain builds
// changes no row the second time (a conditional UPDATE); nil otherwise.
func (rd Reader) ormGateCall(call *ast.CallExpr) *claim {
	fn := callee(rd.info(), call)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	var ch *ormChain
	switch {
	case fn.Pkg().Path() == gormPath && gormUpdates[fn.Name()]:
		ch = rd.gormChain(call)
	case fn.Pkg().Path() == bunPath && fn.Name() == "Exec" && recvName(fn) == "UpdateQuery":
		ch = rd.bunChain(call)
	case rd.entGenerated(fn) && (fn.Name() == "Save" || fn.Name() == "Exec") && (strings.HasSuffix(recvName(fn), "Update") || strings.HasSuffix(recvName(fn), "UpdateOne")):
		ch = rd.entChain(call)
	}
	if ch == nil || len(ch.set) == 0 || len(ch.where) == 0 {
		return nil
	}
	text := "UPDATE t SET " + strings.Join(ch.set, ", ") + " WHERE " + strings.Join(ch.where, " AND ")
	if gateStatement(text) != "conditional UPDATE" {
		return nil
	}
	cl := &claim{at: call.Pos(), what: "conditional " + fn.Name() + " (" + text + ")"}
	if !ch.keyed {
		cl.why = "its statement names the same rows for every job, so the first job turns the others away"
	}
	return cl
}

// gormUpdates are gorm's update finishers.
var gormUpdates = map[string]bool{"Update": true, "UpdateColumn": true, "Updates": true, "UpdateColumns": true}

// bunPath is bun's package path.
const bunPath = "github.com/uptrace/bun"

// recvName is the name of a method's receiver type, or "".
func recvName(fn *types.Func) string {
	recv := fn.Signature().Recv()
	if recv == nil {
		return ""
	}
	if n, ok := types.Unalias(defuse.Deref(recv.Type())).(*types.Named); ok {
		return n.Obj().Name()
	}
	return ""
}

// gormChain reads a gorm update: its Update(col, value) or Updates(map literal), the Where
// calls with constant text down its receiver chain, and a Model with values (gorm adds the
// model's primary key to the condition: db.Model(&job), db.Model(&Job{ID: id})).
func (rd Reader) gormChain(call *ast.CallExpr) *ormChain {
	ch := &ormChain{}
	sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	switch sel.Sel.Name {
	case "Update", "UpdateColumn":
		if len(call.Args) != 2 {
			return nil
		}
		col := rd.Defs.ConstString(call.Args[0])
		if col == "" {
			return nil
		}
		ch.set = append(ch.set, col+" = "+rd.setValue(call.Args[1], ch))
	default:
		if len(call.Args) != 1 {
			return nil
		}
		m := ast.Unparen(call.Args[0])
		if v := rd.Defs.RootVar(m); v != nil && rd.Defs.Def(v) != nil {
			m = ast.Unparen(rd.Defs.Def(v))
		}
		if u, ok := m.(*ast.UnaryExpr); ok && u.Op == token.AND {
			m = ast.Unparen(u.X)
		}
		lit, ok := m.(*ast.CompositeLit)
		if !ok {
			return nil
		}
		_, isMap := types.Unalias(rd.info().TypeOf(lit)).Underlying().(*types.Map)
		st, _ := types.Unalias(rd.info().TypeOf(lit)).Underlying().(*types.Struct)
		for _, elt := range lit.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			col := ""
			switch {
			case ok && isMap:
				col = rd.Defs.ConstString(kv.Key)
			case ok:
				col = rd.gormColumn(st, kv.Key)
			}
			if col == "" {
				return nil
			}
			ch.set = append(ch.set, col+" = "+rd.setValue(kv.Value, ch))
		}
	}
	rd.Defs.ChainCalls(sel.X, func(c *ast.CallExpr, name string) {
		switch {
		case name == "Where" && len(c.Args) > 0:
			if text := rd.Defs.ConstString(c.Args[0]); text != "" {
				ch.where = append(ch.where, "("+rd.bind(text, c.Args[1:], ch)+")")
			}
		case name == "Model" && len(c.Args) == 1 && modelWithValues(c.Args[0]):
			ch.where = append(ch.where, "(id = "+rd.bindName(ch)+")")
			ch.keyed = true
		}
	})
	return ch
}

// gormColumn is the column gorm writes a struct literal's field key to (schema.FieldColumn:
// its gorm tag's column, or its name in snake case); "" when key names no field of st.
func (rd Reader) gormColumn(st *types.Struct, key ast.Expr) string {
	id, ok := key.(*ast.Ident)
	if !ok || st == nil {
		return ""
	}
	for i := 0; i < st.NumFields(); i++ {
		if st.Field(i) == rd.info().Uses[id] {
			return schema.FieldColumn(st, i)
		}
	}
	return ""
}

// modelWithValues reports whether a gorm Model argument may hold a primary key: a variable
// (&job) or a literal with fields (&Job{ID: id}), not an empty literal (&Job{}), which only
// names the table.
func modelWithValues(e ast.Expr) bool {
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	if lit, ok := ast.Unparen(e).(*ast.CompositeLit); ok {
		return len(lit.Elts) > 0
	}
	return true
}

// bunChain reads a bun update: its Set and Where calls with constant text, and WherePK
// (the model's primary key, the job's row).
func (rd Reader) bunChain(call *ast.CallExpr) *ormChain {
	ch := &ormChain{}
	sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	rd.Defs.ChainCalls(sel.X, func(c *ast.CallExpr, name string) {
		switch name {
		case "Set", "Where":
			if len(c.Args) == 0 {
				return
			}
			text := rd.Defs.ConstString(c.Args[0])
			if text == "" {
				return
			}
			if name == "Set" {
				ch.set = append(ch.set, rd.bind(text, c.Args[1:], &ormChain{binds: 100}))
			} else {
				ch.where = append(ch.where, "("+rd.bind(text, c.Args[1:], ch)+")")
			}
		case "WherePK":
			ch.where = append(ch.where, "(id = "+rd.bindName(ch)+")")
			ch.keyed = true
		}
	})
	return ch
}

// entChain reads an update of ent's generated code: its Set<Field>(v) setters, the ID
// UpdateOneID is given, and the Where predicates <Field>EQ(v), <Field>NEQ(v), ID(v).
func (rd Reader) entChain(call *ast.CallExpr) *ormChain {
	ch := &ormChain{}
	sel, _ := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	rd.Defs.ChainCalls(sel.X, func(c *ast.CallExpr, name string) {
		switch {
		case name == "UpdateOneID" && len(c.Args) == 1:
			ch.where = append(ch.where, "(id = "+rd.sqlValue(c.Args[0], ch)+")")
		case strings.HasPrefix(name, "Set") && len(name) > 3 && len(c.Args) == 1:
			ch.set = append(ch.set, schema.SnakeCase(name[3:])+" = "+rd.setValue(c.Args[0], ch))
		case name == "Where":
			for _, p := range c.Args {
				if cond := rd.entPredicate(p, ch); cond != "" {
					ch.where = append(ch.where, "("+cond+")")
				}
			}
		}
	})
	return ch
}

// entPredicate writes a generated predicate call (job.StatusEQ(job.StatusPending),
// job.ID(id)) as SQL, or "".
func (rd Reader) entPredicate(p ast.Expr, ch *ormChain) string {
	c, ok := ast.Unparen(p).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return ""
	}
	fn := callee(rd.info(), c)
	if fn == nil || !rd.entGenerated(fn) || fn.Signature().Recv() != nil {
		return ""
	}
	name := fn.Name()
	switch {
	case name == "ID":
		return "id = " + rd.sqlValue(c.Args[0], ch)
	case strings.HasSuffix(name, "NEQ"):
		return schema.SnakeCase(strings.TrimSuffix(name, "NEQ")) + " <> " + rd.sqlValue(c.Args[0], ch)
	case strings.HasSuffix(name, "EQ"):
		return schema.SnakeCase(strings.TrimSuffix(name, "EQ")) + " = " + rd.sqlValue(c.Args[0], ch)
	case entShorthand(name):
		// queue.Processing(true): the equality ent generates under the field's own name.
		return schema.SnakeCase(name) + " = " + rd.sqlValue(c.Args[0], ch)
	}
	return ""
}

// entOps are the suffixes of ent's generated predicates other than equality, and the names
// of its combinators: a one-argument predicate named otherwise is the equality ent
// generates under the field's own name.
var entOps = []string{"EQ", "NEQ", "In", "NotIn", "GT", "GTE", "LT", "LTE", "Contains", "HasPrefix", "HasSuffix",
	"EqualFold", "ContainsFold", "IsNil", "NotNil"}

// entShorthand reports whether a generated predicate's name is a field's own (Processing,
// Status), not an operator's (StatusIn), an edge's (HasOwner) or a combinator (And, Or, Not).
func entShorthand(name string) bool {
	if name == "And" || name == "Or" || name == "Not" || strings.HasPrefix(name, "Has") || name == "" || !unicode.IsUpper(rune(name[0])) {
		return false
	}
	for _, op := range entOps {
		if strings.HasSuffix(name, op) {
			return false
		}
	}
	return true
}

// entGenerated reports whether fn is of a package ent generated: one that imports ent's SQL
// dialect package, as the ent model's generated rule says.
func (rd Reader) entGenerated(fn *types.Func) bool {
	pkg := fn.Pkg()
	if pkg == nil {
		return false
	}
	for _, imp := range pkg.Imports() {
		if imp.Path() == "entgo.io/ent/dialect/sql" {
			return true
		}
	}
	return false
}

// bind writes text with each ? replaced by the SQL of the argument it takes, in order.
func (rd Reader) bind(text string, args []ast.Expr, ch *ormChain) string {
	var b strings.Builder
	i := 0
	for k, r := range text {
		if r == '?' {
			v := rd.bindName(ch)
			if i < len(args) {
				v = rd.sqlValue(args[i], ch)
			}
			if strings.HasPrefix(v, "(") && strings.HasSuffix(strings.TrimRight(b.String(), " "), "(") && strings.HasPrefix(strings.TrimLeft(text[k+1:], " "), ")") {
				v = v[1 : len(v)-1] // IN (?) given a list
			}
			b.WriteString(v)
			i++
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// setValue writes a value the update sets as SQL (see sqlValue): one from the job is no key
// of the rows it picks.
func (rd Reader) setValue(e ast.Expr, ch *ormChain) string {
	keyed := ch.keyed
	v := rd.sqlValue(e, ch)
	ch.keyed = keyed
	return v
}

// bindName writes the chain's next bind ($1, $2, ...).
func (rd Reader) bindName(ch *ormChain) string {
	ch.binds++
	return "$" + strconv.Itoa(ch.binds)
}

// sqlValue writes a Go value as SQL: a constant as a literal, anything else as a bind ($n),
// which marks the chain keyed.
func (rd Reader) sqlValue(e ast.Expr, ch *ormChain) string {
	if lit := sqlConstant(rd.info().Types[e].Value); lit != "" {
		return lit
	}
	if s := rd.Defs.ConstString(e); s != "" {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	if list := rd.constList(e); list != "" {
		return list
	}
	ch.keyed = true
	return rd.bindName(ch)
}

// constList writes a slice literal of constants ([]string{"processing", "completed"}), which
// gorm and bun expand into a list for IN ?, as one: ('processing', 'completed'). "" for
// anything else.
func (rd Reader) constList(e ast.Expr) string {
	lit, ok := ast.Unparen(e).(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return ""
	}
	if _, ok := types.Unalias(rd.info().TypeOf(lit)).Underlying().(*types.Slice); !ok {
		return ""
	}
	items := make([]string, 0, len(lit.Elts))
	for _, elt := range lit.Elts {
		tv, ok := rd.info().Types[elt]
		if !ok || tv.Value == nil {
			return ""
		}
		items = append(items, rd.sqlValue(elt, &ormChain{}))
	}
	return "(" + strings.Join(items, ", ") + ")"
}

// ormRowsAffected returns the ORM update a gorm result's RowsAffected field is of
// (res.RowsAffected, res := db.Model(...).Where(...).Update(...)), or nil.
func (rd Reader) ormRowsAffected(e ast.Expr, en env) *ast.CallExpr {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "RowsAffected" {
		return nil
	}
	x, idx := rd.resolve(sel.X, en)
	c, ok := x.(*ast.CallExpr)
	if !ok || idx != 0 {
		return nil
	}
	return c
}

// entNotFound returns the ent update whose error e is, when cond tests it for ent's not-found
// error (ent.IsNotFound(err)): UpdateOne finds no row matching its predicates. nil otherwise.
func (rd Reader) entNotFound(cond ast.Expr, en env) *ast.CallExpr {
	c, ok := ast.Unparen(cond).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return nil
	}
	fn := callee(rd.info(), c)
	if fn == nil || fn.Name() != "IsNotFound" || !rd.entGenerated(fn) {
		return nil
	}
	x, idx := rd.resolve(c.Args[0], en)
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return nil
	}
	if f := callee(rd.info(), call); f == nil || idx != f.Signature().Results().Len()-1 {
		return nil
	}
	return call
}

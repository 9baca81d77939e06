// A record's own state, tested and then written on its row before the effects: a sweep over
// the channels it watches (for _, ch := range channels { if !ch.IsLive { ...;
// client.Live.UpdateOneID(ch.ID).SetIsLive(true).Save(ctx); notify(ch) } }), or a record a
// lookup read. The next delivery, or the next run of the sweep, reads the row again and
// skips it once the write is made.

package gates

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/schema"
	"github.com/chokaq/idemlint/internal/sinks/keys"
	"github.com/chokaq/idemlint/internal/sqlstmt"
)

// rowTest is a test of one field of a record read in the delivery: the column, and the
// value (as SQL) the field has, or has not (not), when the test passes.
type rowTest struct {
	rec   *types.Var
	field string
	col   string
	val   string
	not   bool
}

// rowFlagGate returns the gate of an if statement whose condition tests a field of a record
// this delivery read from the database (!rec.IsLive, rec.Status == "pending", rec.Status !=
// "sent"; rec ranging over the rows a call returned, or assigned from a call), when its body
// writes that field on the record's row, with ent (UpdateOneID(rec.ID).Set<Field>(v)), gorm
// (Model(&rec), or a Where given rec's fields, then Update or Updates) or an UPDATE statement
// given one of rec's fields (SET is_live = true WHERE id = $1), to a value the test no
// longer passes: the effects after that write, up to the end of the body, run once per
// change of the field. Effects before the write run again after a crash before it. nil
// otherwise.
func (rd Reader) rowFlagGate(body *ast.BlockStmt, ifs *ast.IfStmt, sc keys.Scope) *Gate {
	t := rd.recordTest(ifs.Cond, sc)
	if t == nil {
		return nil
	}
	// The write must run whenever the body does: a statement of the body itself, or the init
	// or condition of one of its ifs (if _, err := ...Save(ctx); err != nil { continue }),
	// not a branch of it.
	var write *ast.CallExpr
	for _, st := range ifs.Body.List {
		var parts []ast.Node
		switch st := st.(type) {
		case *ast.IfStmt:
			parts = []ast.Node{st.Init, st.Cond}
		case *ast.AssignStmt, *ast.ExprStmt, *ast.DeclStmt:
			parts = []ast.Node{st}
		}
		for _, part := range parts {
			if part == nil || write != nil {
				continue
			}
			ast.Inspect(part, func(x ast.Node) bool {
				switch x := x.(type) {
				case *ast.FuncLit:
					return false
				case *ast.CallExpr:
					if write == nil && rd.writesTest(x, t) {
						write = x
					}
				}
				return write == nil
			})
		}
		if write != nil {
			break
		}
	}
	if write == nil || !rd.readInDelivery(body, t.rec, sc) {
		return nil // last: it may walk the whole body, for each if that gets this far
	}
	return &Gate{
		Start: write.End(),
		End:   ifs.Body.Rbrace,
		What:  "state check of " + t.rec.Name() + "." + t.field + " at " + rd.shortPos(ifs.Pos()) + ", written at " + rd.shortPos(write.Pos()),
	}
}

// recordTest reads a condition that tests a field of a local record (not a parameter);
// whether the record was read in this delivery is rowFlagGate's to ask.
func (rd Reader) recordTest(cond ast.Expr, sc keys.Scope) *rowTest {
	var sel ast.Expr
	t := &rowTest{}
	switch c := ast.Unparen(cond).(type) {
	case *ast.UnaryExpr: // !rec.IsLive
		if c.Op != token.NOT {
			return nil
		}
		sel, t.val = c.X, "FALSE"
	case *ast.BinaryExpr: // rec.Status == "pending", rec.Status != "sent"
		if c.Op != token.EQL && c.Op != token.NEQ {
			return nil
		}
		sel, t.not = c.X, c.Op == token.NEQ
		lit := sqlConstant(rd.info().Types[c.Y].Value)
		if lit == "" {
			sel, lit = c.Y, sqlConstant(rd.info().Types[c.X].Value)
		}
		if lit == "" {
			return nil
		}
		t.val = lit
	default:
		return nil
	}
	s, ok := ast.Unparen(sel).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if f, ok := rd.info().Uses[s.Sel].(*types.Var); !ok || !f.IsField() {
		return nil
	}
	id, ok := ast.Unparen(s.X).(*ast.Ident)
	if !ok {
		return nil
	}
	rec, ok := rd.info().Uses[id].(*types.Var)
	if !ok || sc.Params[rec] {
		return nil
	}
	t.rec, t.field, t.col = rec, s.Sel.Name, schema.SnakeCase(s.Sel.Name)
	return t
}

// readInDelivery reports whether a record variable holds what the database returned in
// this delivery: it ranges over a read's result or a variable assigned from one (rows, err :=
// q.All(ctx)) or filled by a database read in body (db.Find(&rows)), or is itself assigned
// from a read or filled by one (db.First(&rec, id), rows.Scan(&rec.ID, ...)). A record the
// job carries (decoded from its payload, built from its args) holds what its producer saw,
// which a repeat sees again.
func (rd Reader) readInDelivery(body *ast.BlockStmt, v *types.Var, sc keys.Scope) bool {
	read := func(e ast.Expr) bool {
		if w := rd.local(e); w != nil {
			if d := rd.Defs.Def(w); d != nil {
				return rd.readCall(d, sc)
			}
			return rd.filledByRead(body, w)
		}
		return rd.readCall(e, sc)
	}
	if over := rd.Defs.RangedOver(v); over != nil {
		return read(over)
	}
	if d := rd.Defs.Def(v); d != nil {
		return rd.readCall(d, sc)
	}
	return rd.filledByRead(body, v)
}

// readCall reports whether e is a call that reads from a database: a lookup or listing by
// its name (GetOrder, FindDue, ListPending, ent's All, Only, First), or a call given nothing
// of the job (q.DueInvoices(ctx)). A call given the job's data under another name
// (parse(t.Payload())) may return what the job carries.
func (rd Reader) readCall(e ast.Expr, sc keys.Scope) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := callee(rd.info(), call)
	if fn == nil {
		return false
	}
	if lookupName(fn.Name()) || startsWithWord(fn.Name(), listVerbs) {
		return true
	}
	fromJob := false
	for _, a := range call.Args {
		ast.Inspect(a, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok {
				if v, ok := rd.info().Uses[id].(*types.Var); ok && sc.Params[v] && !defuse.IsContext(v.Type()) {
					fromJob = true
				}
			}
			return !fromJob
		})
	}
	return !fromJob
}

// listVerbs start the names of reads that return rows (beside lookupVerbs).
var listVerbs = []string{"List", "Query", "Select", "All", "Only", "First", "Search"}

// filledByRead reports whether body gives v's address, or a field's, to a database read
// that fills it: gorm's First, Take, Last, Find (db.Find(&rows)), a row's Scan
// (rows.Scan(&ch.ID, &ch.IsLive)), sqlx's Get and Select. A decoder (json.Unmarshal of the
// job's payload) is none: what it fills is what the job carries.
func (rd Reader) filledByRead(body *ast.BlockStmt, v *types.Var) bool {
	return rd.readFilling(body, v, nil) != nil
}

// readFilling returns the first database read in body (dbReads) given v's address, or a
// field's, that keep accepts (nil: any); nil when there is none.
func (rd Reader) readFilling(body *ast.BlockStmt, v *types.Var, keep func(*ast.CallExpr) bool) *ast.CallExpr {
	var found *ast.CallExpr
	ast.Inspect(body, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok || found != nil {
			return found == nil
		}
		fn := callee(rd.info(), call)
		if fn == nil || fn.Signature().Recv() == nil || !dbReads[fn.Name()] {
			return true
		}
		for _, a := range call.Args {
			if u, ok := ast.Unparen(a).(*ast.UnaryExpr); ok && u.Op == token.AND && rd.Defs.RootVar(u.X) == v && (keep == nil || keep(call)) {
				found = call
			}
		}
		return true
	})
	return found
}

// dbReads are the methods of database clients that fill what their pointer arguments
// point to with what they read.
var dbReads = map[string]bool{"First": true, "Take": true, "Last": true, "Find": true, "Scan": true,
	"Get": true, "GetContext": true, "Select": true, "SelectContext": true, "StructScan": true}

// sqlConstant writes a constant as an SQL literal, as the ORM chains write it (sqlValue), or
// "" for none.
func sqlConstant(v constant.Value) string {
	if v == nil {
		return ""
	}
	switch v.Kind() {
	case constant.String:
		return "'" + strings.ReplaceAll(constant.StringVal(v), "'", "''") + "'"
	case constant.Int, constant.Float:
		return v.ExactString()
	case constant.Bool:
		return strings.ToUpper(v.ExactString())
	}
	return ""
}

// writesTest reports whether call is an update of the tested record's row (an ent or gorm
// chain, or an UPDATE statement given one of the record's fields) that sets the tested
// column to a constant the test no longer passes.
func (rd Reader) writesTest(call *ast.CallExpr, t *rowTest) bool {
	fn := callee(rd.info(), call)
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	var set []string
	switch {
	case fn.Pkg().Path() == gormPath && gormUpdates[fn.Name()]:
		if ch := rd.gormChain(call); ch != nil && rd.onRecord(call, t.rec) {
			set = ch.set
		}
	case rd.entGenerated(fn) && (fn.Name() == "Save" || fn.Name() == "Exec") && strings.HasSuffix(recvName(fn), "UpdateOne"):
		if ch := rd.entChain(call); ch != nil && rd.onRecord(call, t.rec) {
			set = ch.set
		}
	default:
		// tx.Exec(ctx, "UPDATE channels SET is_live = true WHERE id = $1", ch.ID)
		if text, ok := rd.statementCall(call); ok && text != nil && rd.givenField(call, text, t.rec) {
			sets, _ := sqlstmt.SetConstants(rd.Defs.Text(text))
			for _, c := range sets {
				set = append(set, c.Column+" = "+c.Value)
			}
		}
	}
	for _, s := range set {
		col, val, ok := strings.Cut(s, " = ")
		if !ok || col != t.col || strings.HasPrefix(val, "$") {
			continue
		}
		if t.not == (val == t.val) {
			return true // != 'sent' then 'sent'; == 'pending' (or !flag) then another value
		}
	}
	return false
}

// givenField reports whether an argument of a statement's call after its text is one of
// rec's fields (or rec).
func (rd Reader) givenField(call *ast.CallExpr, text ast.Expr, rec *types.Var) bool {
	after := false
	for _, a := range call.Args {
		if after && rd.Defs.RootVar(a) == rec {
			return true
		}
		after = after || a == text
	}
	return false
}

// onRecord reports whether an update chain picks the record's row: ent's UpdateOneID(rec.ID)
// or UpdateOne(rec), gorm's Model(&rec) or a Where given one of rec's fields.
func (rd Reader) onRecord(call *ast.CallExpr, rec *types.Var) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	found := false
	rd.Defs.ChainCalls(sel.X, func(c *ast.CallExpr, name string) {
		switch name {
		case "UpdateOneID", "UpdateOne", "Model", "Where":
			args := c.Args
			if name == "Where" && len(args) > 0 {
				args = args[1:]
			}
			for _, a := range args {
				found = found || rd.Defs.RootVar(a) == rec
			}
		}
	})
	return found
}

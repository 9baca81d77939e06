// Batches (pgx.Batch): the statements queued on the batch decide its effect (those its
// callers queue, for a batch the function is given: PassText). They are
// queued on the batch variable itself (b.Queue(sql, args...)), or by a helper of the package
// the batch is handed to (queueAll(b, stmts)), and the text is a constant, or each element
// of a []string ranged over: a literal, or constants appended to it
// (stmts = append(stmts, "INSERT ..."); for _, s := range stmts { b.Queue(s) }).

package statements

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks/keys"
	"github.com/chokaq/idemlint/internal/strval"
)

// maxBatchHelpers bounds how deep helpers that hand the batch on are followed.
const maxBatchHelpers = 2

// Batch judges a batch by the worst statement queued on it; a batch with no Queue in
// view is reported as not known. Statements that are a parameter of the function in scope
// sc (a []string ranged into the batch, or a string) are left to its callers (TextParam).
func (rd Reader) Batch(mk keys.Make, batch ast.Expr, sc keys.Scope) *effect.Effect {
	var worst *effect.Effect
	found := false
	if v := rd.Defs.RootVar(batch); v != nil {
		for _, q := range rd.queued(v, nil, 0) {
			found = true
			if p := rd.textParam(q.call.Args[0], sc); p != 0 {
				e := mk(effect.Unprotected, "SQL write not safe to repeat: statement text not known")
				e.TextParam = uint8(p)
				if worst == nil || e.Worse(*worst) {
					worst = e
				}
				continue
			}
			for _, text := range q.texts {
				e := rd.sqlEffect(mk, text, false, q.call.Args[1:])
				if e != nil && (worst == nil || e.Worse(*worst)) {
					worst = e
				}
			}
		}
	}
	if !found {
		e := mk(effect.Unprotected, "SQL write not safe to repeat: statements queued on the batch not known")
		if v := rd.Defs.RootVar(batch); v != nil {
			// A batch the function is given (flushBatch(ctx, tx, b)): its callers queue
			// the statements, and PassText reads them on the batch each one passes.
			e.TextParam = uint8(keys.ParamIndex(sc, v))
		}
		return e
	}
	return worst
}

// textParam returns 1 + the index of the parameter of sc's declared function that a queued
// statement is: a string parameter itself, or the element of a []string parameter ranged
// over; else 0.
func (rd Reader) textParam(stmt ast.Expr, sc keys.Scope) int {
	if sc.Func == nil {
		return 0
	}
	id, ok := ast.Unparen(stmt).(*ast.Ident)
	if !ok {
		return 0
	}
	v, _ := rd.info().Uses[id].(*types.Var)
	if v == nil {
		return 0
	}
	if over, ok := ast.Unparen(rd.Defs.RangedOver(v)).(*ast.Ident); ok {
		v, _ = rd.info().Uses[over].(*types.Var)
	}
	return keys.ParamIndex(sc, v)
}

// PassText judges, at a call of a function that queues the statements its parameter holds
// (e.TextParam), what the caller (in scope sc) passes there (args, the call's arguments in
// parameter order; nil for a function value): the worst of the texts of a []string literal
// or constants appended to one, or of a constant string; the caller's own parameter passes
// the question on; anything else stays not known. It reports whether the effect is kept:
// not when every statement is a read or writes an append-only table.
func (rd Reader) PassText(args []ast.Expr, e effect.Effect, sc keys.Scope) (effect.Effect, bool) {
	i := int(e.TextParam) - 1
	e.TextParam = 0
	if args == nil || i >= len(args) {
		return e, true
	}
	arg := args[i]
	if p := rd.textParam(arg, sc); p != 0 {
		e.TextParam = uint8(p)
		return e, true
	}
	mk := func(state effect.State, detail string) *effect.Effect {
		c := e
		c.State, c.Detail = state, detail
		return &c
	}
	if v := rd.Defs.RootVar(arg); v != nil {
		if qs := rd.queued(v, nil, 0); len(qs) > 0 {
			return rd.queuedEffect(mk, qs, e)
		}
	}
	texts := rd.sliceTexts(arg)
	if len(texts) == 0 {
		if t := rd.Defs.Text(arg); t != "" {
			texts = []string{t}
		}
	}
	var worst *effect.Effect
	for _, text := range texts {
		if w := rd.sqlEffect(mk, text, false, nil); w != nil && (worst == nil || w.Worse(*worst)) {
			worst = w
		}
	}
	if worst == nil {
		return e, len(texts) == 0
	}
	return *worst, true
}

// queuedEffect is the worst effect of the statements queued on a batch a caller passes to
// a function that sends it (PassText); a statement whose text is not known keeps e.
func (rd Reader) queuedEffect(mk keys.Make, qs []queuedStmt, e effect.Effect) (effect.Effect, bool) {
	var worst *effect.Effect
	for _, q := range qs {
		for _, text := range q.texts {
			w := rd.sqlEffect(mk, text, false, q.call.Args[1:])
			if w == nil {
				continue
			}
			if worst == nil || w.Worse(*worst) {
				worst = w
			}
		}
	}
	if worst == nil {
		return e, false
	}
	return *worst, true
}

// queuedStmt is a Queue call and the texts its statement argument may have.
type queuedStmt struct {
	call  *ast.CallExpr
	texts []string
}

// queued returns the Queue calls made on v, and those of the package's functions v is
// handed to (on the parameter it arrives in); args maps the parameters of the function
// being read to the caller's arguments, nil at the top.
func (rd Reader) queued(v *types.Var, args map[*types.Var]ast.Expr, depth int) []queuedStmt {
	var out []queuedStmt
	for _, c := range rd.Defs.CallsOn(v) {
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "Queue" || len(c.Args) == 0 {
			continue
		}
		out = append(out, queuedStmt{call: c, texts: rd.queuedTexts(c.Args[0], args)})
	}
	if depth >= maxBatchHelpers {
		return out
	}
	for _, c := range rd.Defs.Passes(v) {
		fn := typeutil.StaticCallee(rd.info(), c)
		if fn == nil || fn.Pkg() != v.Pkg() {
			continue
		}
		sig := fn.Origin().Signature()
		inner := map[*types.Var]ast.Expr{}
		var param *types.Var
		for i, a := range c.Args {
			if i >= sig.Params().Len() {
				break
			}
			p := sig.Params().At(i)
			inner[p] = rd.through(a, args)
			if id, isID := ast.Unparen(a).(*ast.Ident); isID && rd.info().Uses[id] == v {
				param = p
			}
		}
		if param != nil {
			out = append(out, rd.queued(param, inner, depth+1)...)
		}
	}
	return out
}

// through returns the caller's expression for e when e names a parameter args maps.
func (rd Reader) through(e ast.Expr, args map[*types.Var]ast.Expr) ast.Expr {
	if id, ok := ast.Unparen(e).(*ast.Ident); ok {
		if v, ok := rd.info().Uses[id].(*types.Var); ok {
			if a, ok := args[v]; ok {
				return a
			}
		}
	}
	return e
}

// queuedTexts returns the texts a queued statement may have: its own text, or, for the
// value variable of a range over a []string, the text of each element.
func (rd Reader) queuedTexts(arg ast.Expr, args map[*types.Var]ast.Expr) []string {
	id, ok := ast.Unparen(arg).(*ast.Ident)
	if !ok {
		return []string{rd.Defs.Text(arg)}
	}
	v, _ := rd.info().Uses[id].(*types.Var)
	over := ast.Expr(nil)
	if v != nil {
		over = rd.Defs.RangedOver(v)
	}
	if over == nil {
		return []string{rd.Defs.Text(rd.through(arg, args))}
	}
	if texts := rd.sliceTexts(rd.through(over, args)); len(texts) > 0 {
		return texts
	}
	return []string{rd.Defs.Text(arg)}
}

// sliceTexts returns the texts of the elements of a []string variable built from a literal
// and appends in view (s := []string{...}; s = append(s, "...")), or nil when a definition
// is something else (the slice comes from elsewhere).
func (rd Reader) sliceTexts(e ast.Expr) []string {
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.CompositeLit); ok {
		return rd.elementTexts(lit.Elts)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	w, _ := rd.info().Uses[id].(*types.Var)
	if w == nil {
		return nil
	}
	var texts []string
	for _, d := range rd.Defs.Defs(w) {
		switch d := ast.Unparen(d).(type) {
		case *ast.CompositeLit:
			texts = append(texts, rd.elementTexts(d.Elts)...)
		case *ast.CallExpr:
			if !rd.isBuiltin(d, "append") && !rd.isBuiltin(d, "make") {
				return nil
			}
			if rd.isBuiltin(d, "append") && d.Ellipsis != 0 {
				return nil // append(s, more...): elements from elsewhere
			}
			if rd.isBuiltin(d, "append") && len(d.Args) > 1 {
				texts = append(texts, rd.elementTexts(d.Args[1:])...)
			}
		case *ast.Ident:
			if d.Name != "nil" {
				return nil
			}
		default:
			return nil
		}
	}
	return texts
}

// elementTexts returns the text of each element expression.
func (rd Reader) elementTexts(elts []ast.Expr) []string {
	out := make([]string, 0, len(elts))
	for _, el := range elts {
		if t := rd.Defs.Text(el); t != "" {
			out = append(out, t)
		} else {
			out = append(out, strval.Hole)
		}
	}
	return out
}

// isBuiltin reports whether call calls the predeclared function name.
func (rd Reader) isBuiltin(call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || id.Name != name {
		return false
	}
	_, ok = rd.info().Uses[id].(*types.Builtin)
	return ok
}

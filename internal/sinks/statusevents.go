// Status events: a broker message that says only which entity it is about and the status
// that entity has now ({"trackingId": t, "status": "PENDING"}, published to a subject of
// the entity). A repeat publishes the same message again: it restates a status the
// consumers already hold, carries nothing they could add up, and its content is its own
// identity (the entity and the status), which a consumer that must act once tells apart
// without a message id. Such a message is judged safe to repeat; a message with any other
// field (an amount, a note, a time) stays a new message on every repeat.

package sinks

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/sinks/keys"
	"github.com/chokaq/idemlint/internal/topics"
)

// statusEvent judges the message a broker publish sends (the call's []byte argument, or the
// Value, Body or Data of the message it is given): made from a status event (statusFields),
// the publish is protected; made from a parameter of the scope's function, each caller's
// argument decides (e.PayloadParam, passStatusEvent). A publish linked to consumers of the
// program that are not safe to repeat stays as it is: they show what a repeat does.
func (j *Judge) statusEvent(e *effect.Effect, call *ast.CallExpr, sc Scope) {
	if e == nil || e.Kind != effect.Publish || e.State != effect.Unprotected || strings.Contains(e.Detail, topics.Unsafe) {
		return
	}
	src := j.messageSource(call)
	if src == nil {
		return
	}
	if fields, ok := j.statusFields(src, sc); ok {
		e.State, e.Detail = effect.Protected, statusDetail(e.Detail, fields)
		return
	}
	if p := j.structParam(src, sc); p != 0 {
		e.PayloadParam = uint8(p)
	}
}

// passStatusEvent checks, at a call of a function whose publish sends a message made from
// its parameter (e.PayloadParam), what the caller (scope sc) passes there: a status event
// protects the publish, the caller's own parameter passes the question on, anything else
// leaves the publish as it is.
func (j *Judge) passStatusEvent(args []ast.Expr, e effect.Effect, sc Scope) effect.Effect {
	i := int(e.PayloadParam) - 1
	e.PayloadParam = 0
	if i < 0 || i >= len(args) || e.State != effect.Unprotected || strings.Contains(e.Detail, topics.Unsafe) {
		return e
	}
	if fields, ok := j.statusFields(args[i], sc); ok {
		e.State, e.Detail = effect.Protected, statusDetail(e.Detail, fields)
		return e
	}
	e.PayloadParam = uint8(j.structParam(args[i], sc))
	return e
}

// statusDetail is the detail of a publish of a status event, from the detail it had
// ("JetStream message without a deduplication id", "Kafka message sent with no
// deduplication"): what the sink sends, then why a repeat is safe.
func statusDetail(detail string, fields []string) string {
	for _, cut := range []string{" without", " sent with"} {
		detail, _, _ = strings.Cut(detail, cut)
	}
	return detail + " of a status event (" + strings.Join(fields, ", ") + "): a repeat restates the status the entity has"
}

// messageSource returns the value a publish's message is encoded from: the operand of
// json.Marshal (or another package's Marshal), or the receiver of a method with no
// parameters that encodes it (event.Serialize()), found from the call's []byte argument or
// the Value, Body or Data field of a message struct it is given; nil when not in view.
func (j *Judge) messageSource(call *ast.CallExpr) ast.Expr {
	for _, a := range call.Args {
		body := a
		if !defuse.IsBytes(j.info().TypeOf(a)) {
			body = nil
			for _, f := range []string{"Value", "Body", "Data"} {
				if v := j.Defs.StructField(a, f); v != nil && defuse.IsBytes(j.info().TypeOf(v)) {
					body = v
					break
				}
			}
		}
		if body == nil {
			continue
		}
		var src ast.Expr
		j.Defs.Find(body, defuse.Value, func(x ast.Node) bool {
			c, ok := x.(*ast.CallExpr)
			if !ok {
				return false
			}
			fn, _ := typeutil.Callee(j.info(), c).(*types.Func)
			switch {
			case fn == nil:
			case fn.Signature().Recv() == nil && fn.Name() == "Marshal" && len(c.Args) == 1:
				src = c.Args[0]
			case fn.Signature().Recv() != nil && fn.Signature().Params().Len() == 0 && len(c.Args) == 0:
				if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
					src = sel.X // payload.Serialize()
				}
			}
			return true
		})
		return src
	}
	return nil
}

// statusFields reports whether e is a status event: a struct literal (given directly, by
// address, or defined once in a local variable) whose fields, all named, are a status
// (statusField) and identities (a field named ID, or ending in ID or Id) whose values come
// from the job, with nothing random or from the clock; it returns the fields' names.
func (j *Judge) statusFields(e ast.Expr, sc Scope) ([]string, bool) {
	lit, sets := j.Defs.StructValue(e)
	if lit == nil || len(sets) > 0 && !j.statusSets(sets) {
		return nil, false
	}
	var names []string
	status, id := false, false
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return nil, false
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			return nil, false
		}
		switch name := key.Name; {
		case statusName(name):
			if !j.constantStatus(kv.Value) {
				return nil, false
			}
			status = true
		case name == "ID" || name == "Id" || strings.HasSuffix(name, "ID") || strings.HasSuffix(name, "Id"):
			if j.keys().Judge([]ast.Expr{kv.Value}, sc).Problem != keys.Stable {
				return nil, false // random, a constant, or not the job's
			}
			id = true
		default:
			return nil, false
		}
		names = append(names, key.Name)
	}
	return names, status && id
}

// statusSets reports whether the assignments to a status event's variable after its
// literal only set its status to a constant (ev.Status = Failed).
func (j *Judge) statusSets(sets []*ast.AssignStmt) bool {
	for _, a := range sets {
		for i, l := range a.Lhs {
			sel, ok := ast.Unparen(l).(*ast.SelectorExpr)
			if !ok || !statusName(sel.Sel.Name) || len(a.Rhs) != len(a.Lhs) || !j.constantStatus(a.Rhs[i]) {
				return false
			}
		}
	}
	return true
}

// statusName reports whether a field's name says it holds a status: Status, State, or a
// name ending in one (OrderStatus, PaymentState).
func statusName(name string) bool {
	return strings.HasSuffix(name, "Status") || strings.HasSuffix(name, "State")
}

// constantStatus reports whether a status value is a constant, or the status field of a
// local struct that is only ever given constants there, in its literal or after it
// (update.Status, set to Failed in one branch and Sent in another).
func (j *Judge) constantStatus(e ast.Expr) bool {
	if tv, ok := j.info().Types[e]; ok && tv.Value != nil {
		return true
	}
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if _, ok := ast.Unparen(sel.X).(*ast.Ident); !ok {
		return false
	}
	lit, sets := j.Defs.StructValue(sel.X)
	if lit == nil {
		return false
	}
	v, given := defuse.FieldValue(lit, sel.Sel.Name)
	if tv, ok := j.info().Types[v]; given && (!ok || tv.Value == nil) {
		return false
	}
	for _, a := range sets {
		for i, l := range a.Lhs {
			if ls, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && ls.Sel.Name == sel.Sel.Name {
				if len(a.Rhs) != len(a.Lhs) {
					return false
				}
				if tv, ok := j.info().Types[a.Rhs[i]]; !ok || tv.Value == nil {
					return false
				}
				given = true
			}
		}
	}
	return given // the literal's value, or one set after it
}

// structParam returns 1 + the index of the parameter of sc's function, of a struct type
// and never assigned nor given fields, that e names, or 0.
func (j *Judge) structParam(e ast.Expr, sc Scope) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || sc.Func == nil {
		return 0
	}
	v, _ := j.info().Uses[id].(*types.Var)
	if v == nil || len(j.Defs.Defs(v)) != 0 || len(j.Defs.FieldSets(v)) != 0 {
		return 0
	}
	if _, ok := defuse.Deref(v.Type()).Underlying().(*types.Struct); !ok {
		return 0
	}
	return keys.ParamIndex(sc, v)
}

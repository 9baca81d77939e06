// Publishes judged by the program's own consumers (internal/topics): the topic a publish
// names, and the functions of the package that return a message made for a constant topic.

package sinks

import (
	"go/ast"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/sinks/params"
	"github.com/chokaq/idemlint/internal/topics"
)

// toConsumers judges an unprotected publish e, the call of sink s (the function fn), by the
// program's consumers of its topic: when every one of them is safe to run again on the
// same message, a repeated publish only runs them again, and e is protected, its detail
// naming them; when one is not, e stays unprotected and its detail says which and why. A
// publish whose topic is not a constant, or that no consumer of the program takes, is left
// as it is; Published is told of every constant one, for the program's summary. A topic,
// or message, that is a parameter of the function in scope sc (a wrapper Publish(topic
// string, msgs ...)) is left to its callers (e.TopicParam, PassTopic).
func (j *Judge) toConsumers(e *effect.Effect, s *model.Sink, fn *types.Func, call *ast.CallExpr, sc Scope) {
	if e == nil || e.State >= effect.Claimed || s.Topic == 0 || fn.Pkg() == nil || (j.Published == nil && len(j.Consumers) == 0) {
		return
	}
	arg := defuse.ArgAt(call, s.Topic-1)
	var topic string
	if s.TopicType {
		topic = j.typeTopic(arg, s.TopicField)
	} else {
		topic = j.topicOf(arg, fn.Pkg().Path())
	}
	if topic == "" {
		if s.TopicType {
			return // a River wrapper's args: PassArgs
		}
		if p := j.topicParam(arg, fn.Pkg().Path(), sc); p != 0 {
			e.TopicParam, e.Topic = uint8(p), &effect.TopicSink{Library: s.Library, Pkg: fn.Pkg().Path(), What: s.What}
		}
		return
	}
	j.linkConsumers(e, s.Library, s.What, topic)
}

// PassTopic checks, at a call of a function whose publish takes its topic, or its
// message, from a parameter (e.TopicParam), what the caller (scope sc) passes there: a
// constant topic, or a message the library's constructor made for one
// (asynq.NewTask(TypeEmail, payload)), links the publish to the program's consumers of
// that topic, as at a direct call (linkConsumers); the caller's own parameter passes the
// question on; anything else leaves the publish as it is.
func (j *Judge) PassTopic(args []ast.Expr, e effect.Effect, sc Scope) effect.Effect {
	i, ts := int(e.TopicParam)-1, e.Topic
	e.TopicParam, e.Topic = 0, nil
	if args == nil || i < 0 || i >= len(args) || ts == nil || e.State >= effect.Claimed {
		return e
	}
	if topic := j.topicOf(args[i], ts.Pkg); topic != "" {
		j.linkConsumers(&e, ts.Library, ts.What, topic)
		return e
	}
	if p := j.topicParam(args[i], ts.Pkg, sc); p != 0 {
		e.TopicParam, e.Topic = uint8(p), ts
	}
	return e
}

// topicParam returns 1 + the index of the parameter of sc's declared function that names
// the topic of a publish's argument e, or 0: e itself (a topic, or a message, its callers
// give a wrapper), or the first argument of the call of a constructor of libPath that made
// the message (asynq.NewTask(typ, payload) in a Publish(ctx, typ, payload)), the parameter
// never assigned in the function.
func (j *Judge) topicParam(e ast.Expr, libPath string, sc Scope) int {
	if p := j.keys().OwnParam(e, sc); p != 0 {
		return p
	}
	p := 0
	j.Defs.Find(e, defuse.Value, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		fn, _ := typeutil.Callee(j.info(), call).(*types.Func)
		if fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == libPath && fn.Signature().Recv() == nil && len(call.Args) > 0 {
			p = j.keys().OwnParam(call.Args[0], sc)
		}
		return true // the value is this call's result, whatever it says
	})
	return p
}

// linkConsumers judges a publish (what: "asynq task enqueued") of topic by the consumers of
// the program that take it: protected when every one is safe to repeat, else saying which
// is not. It records the publish for the inventory.
func (j *Judge) linkConsumers(e *effect.Effect, library, what, topic string) {
	m := topics.Message{Library: library, Topic: topic}
	if j.Published != nil {
		j.Published(m)
	}
	cs := j.Consumers.Match(m.Library, m.Topic)
	if len(cs) == 0 {
		return
	}
	names := make([]string, len(cs))
	safe, why := true, ""
	for i, c := range cs {
		names[i] = c.Handler
		safe = safe && c.Safe
		if !c.Safe && why == "" {
			why = ": " + c.Why
		}
	}
	if safe {
		e.State = effect.Protected
		e.Detail = what + " for " + strconv.Quote(topic) + ", whose consumers in this program are safe to repeat (" + strings.Join(names, ", ") + ")"
		return
	}
	e.Detail += topics.Unsafe + strings.Join(names, ", ") + ", which is not safe to repeat" + why
}

// topicOf returns the constant topic a publish's argument names: the constant itself (a
// subject), or the first argument of the call of the library's constructor (a function of
// libPath) that made the message (asynq.NewTask(TypeEmail, payload)), directly or through a
// function that returns such a message (MessageMakers); "" when it is not known.
func (j *Judge) topicOf(arg ast.Expr, libPath string) string {
	if arg == nil {
		return ""
	}
	if t := j.Defs.ConstString(arg); t != "" {
		return t
	}
	topic := ""
	j.Defs.Find(arg, defuse.Value, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return false
		}
		if made := j.constructed(call); made != nil && made.Pkg == libPath {
			topic = made.Topic
		}
		return true // the value is this call's result, whatever it says
	})
	return topic
}

// typeTopic returns the topic a publish of a typed message names (a River job's args
// type): the named type of arg's value, or with field, of that field in every element of
// the batch arg (the same type for all of them); "" when it is not known.
func (j *Judge) typeTopic(arg ast.Expr, field string) string {
	if arg == nil {
		return ""
	}
	if field == "" {
		return j.valueType(arg)
	}
	topic := ""
	for _, elt := range (params.Reader{Defs: j.Defs, Models: j.Models}).Elems(arg) {
		v := j.fieldValue(elt, field)
		if v == nil {
			return ""
		}
		t := j.valueType(v)
		if t == "" || (topic != "" && t != topic) {
			return ""
		}
		topic = t
	}
	return topic
}

// fieldValue returns the value given to field in the struct literal elt (&T{...} too,
// through a local variable), or nil.
func (j *Judge) fieldValue(elt ast.Expr, field string) ast.Expr {
	var out ast.Expr
	j.Defs.Find(elt, defuse.Value, func(x ast.Node) bool {
		lit, ok := x.(*ast.CompositeLit)
		if !ok {
			return false
		}
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok && id.Name == field {
					out = kv.Value
				}
			}
		}
		return true
	}, defuse.Through(func(x ast.Expr) []ast.Expr {
		if u, ok := x.(*ast.UnaryExpr); ok {
			return []ast.Expr{u.X}
		}
		return nil
	}))
	return out
}

// valueType names the named type, not an interface, of the value e holds ("pkg/path.Type"),
// following a local variable of an interface type to what it was given; "" when it is
// not one type.
func (j *Judge) valueType(e ast.Expr) string {
	topic := ""
	j.Defs.Find(e, defuse.Value, func(x ast.Node) bool {
		t := j.info().TypeOf(x.(ast.Expr))
		if t == nil || types.IsInterface(t) {
			return false
		}
		topic = topics.TypeName(t)
		return true
	})
	return topic
}

// constructed returns what call makes: a message of a modelled library's constructor
// whose first argument is a constant (NewTask(TypeEmail, ...)), or what a function that
// returns one says (Made); nil otherwise.
func (j *Judge) constructed(call *ast.CallExpr) *topics.Made {
	fn, ok := typeutil.Callee(j.info(), call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil
	}
	if j.Models.Index.Modelled(fn.Pkg().Path()) {
		if len(call.Args) == 0 || fn.Signature().Recv() != nil {
			return nil
		}
		if t := j.Defs.ConstString(call.Args[0]); t != "" {
			return &topics.Made{Pkg: fn.Pkg().Path(), Topic: t}
		}
		return nil
	}
	if j.Made != nil {
		return j.Made(fn)
	}
	return nil
}

// MessageMakers returns the functions of files whose first result, in every return that
// gives one (nil aside), is a message a modelled library's constructor made for one
// constant topic (func NewEmailTask(id int) (*asynq.Task, error) { ...; return
// asynq.NewTask(TypeEmail, payload), nil }): a publish of what they return names that
// topic. j.Made answers for the functions of other packages; the package's own are found
// in the order they are declared, a maker calling one declared before it included, and
// added to j.Made, for the publishes of the package; the caller exports them as facts.
func (j *Judge) MessageMakers(files []*ast.File) map[*types.Func]*topics.Made {
	out := map[*types.Func]*topics.Made{}
	imported := j.Made
	j.Made = func(fn *types.Func) *topics.Made {
		if m, ok := out[fn]; ok {
			return m
		}
		if imported != nil {
			return imported(fn)
		}
		return nil
	}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Type.Results == nil {
				continue
			}
			fn, ok := j.info().Defs[fd.Name].(*types.Func)
			if !ok || !j.modelledResult(fn) {
				continue
			}
			if m := j.returnedMessage(fd.Body); m != nil {
				out[fn] = m
			}
		}
	}
	return out
}

// modelledResult reports whether fn's first result is of a type (or a pointer to one) a
// modelled library declares: only such a function can return a library's message.
func (j *Judge) modelledResult(fn *types.Func) bool {
	res := fn.Signature().Results()
	if res.Len() == 0 {
		return false
	}
	named, ok := types.Unalias(defuse.Deref(res.At(0).Type())).(*types.Named)
	return ok && named.Obj().Pkg() != nil && j.Models.Index.Modelled(named.Obj().Pkg().Path())
}

// returnedMessage returns the message every return of body (not of the literals inside
// it) makes, when all that return one agree; nil otherwise.
func (j *Judge) returnedMessage(body *ast.BlockStmt) *topics.Made {
	var made *topics.Made
	agree := true
	ast.Inspect(body, func(x ast.Node) bool {
		switch r := x.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(r.Results) == 0 || !agree {
				return false
			}
			if id, ok := ast.Unparen(r.Results[0]).(*ast.Ident); ok && id.Name == "nil" {
				return false
			}
			var m *topics.Made
			j.Defs.Find(r.Results[0], defuse.Value, func(x ast.Node) bool {
				if call, ok := x.(*ast.CallExpr); ok {
					m = j.constructed(call)
					return true
				}
				return false
			})
			if m == nil || (made != nil && *m != *made) {
				agree = false
				return false
			}
			made = m
		}
		return true
	})
	if !agree {
		return nil
	}
	return made
}

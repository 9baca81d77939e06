// The topics the package's handlers consume, for the program-wide link of publishes to
// them (internal/topics): a handler registered for a constant topic (asynq's
// mux.HandleFunc(TypeEmail, h), a JetStream subscription, a Watermill router's handler) or
// one that takes a typed job (a River worker of its args type),
// and whether it is safe to run again on the same message. A registration here of a
// function of another package is a Subscription; that package says whether its handlers
// are safe (Verdicts), and the link joins the two.

package handlers

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/chokaq/idemlint/internal/defuse"
	"github.com/chokaq/idemlint/internal/link"
	"github.com/chokaq/idemlint/internal/model"
	"github.com/chokaq/idemlint/internal/topics"
)

// Subscription is a function of another package handed to a modelled registration that
// names a topic: Call is the registration. Wrapper is set when the registration is a
// wrapper's that was given the topic (Call's model names none).
type Subscription struct {
	Fn      *types.Func
	Call    *ast.CallExpr
	Wrapper *WrapperTopic
}

// WrapperTopic is the constant topic the program's own registration wrapper was given
// with a handler (an eventer's Register(TopicRefresh, h) that hands h to a Watermill
// router under its topic parameter: effect.ParamReg.Topic), in the library that names it,
// and that call.
type WrapperTopic struct {
	Library, Topic string
	Call           *ast.CallExpr
}

// Consumers returns the topics the handlers hs of the package consume where the package
// registers them itself, each with whether it is safe to run again on the same message
// (safeToRepeat).
func Consumers(in Input, hs []Handler) []topics.Consumer {
	var out []topics.Consumer
	for _, h := range hs {
		if lib, topic := jobTopic(in.Models, h); topic != "" {
			why, open := safeToRepeat(in.Fset, h, in.Pkg.Path())
			out = append(out, topics.Consumer{Library: lib, Topic: topic, Handler: h.Name, At: in.Fset.Position(h.Pos).String(), Safe: why == "", Why: why, Open: open})
			continue
		}
		if w := h.WrapperTopic; h.RegCall == nil && w != nil {
			why, open := safeToRepeat(in.Fset, h, in.Pkg.Path())
			out = append(out, topics.Consumer{Library: w.Library, Topic: w.Topic, Handler: h.Name, At: in.Fset.Position(w.Call.Pos()).String(), Safe: why == "", Why: why, Open: open})
			continue
		}
		if h.RegCall == nil {
			continue
		}
		if lib, topic := RegistrationTopic(in.Info, in.Defs, in.Models, h.RegCall); topic != "" {
			why, open := safeToRepeat(in.Fset, h, in.Pkg.Path())
			out = append(out, topics.Consumer{Library: lib, Topic: topic, Handler: h.Name, At: in.Fset.Position(h.RegCall.Pos()).String(), Safe: why == "", Why: why, Open: open})
		}
	}
	return topics.Sort(out)
}

// Subscriptions writes the registrations of other packages' functions for a topic
// (Found.Subscribed) for the program's summary; those whose topic is not a constant are
// left out.
func Subscriptions(in Input, subs []Subscription) []topics.Subscription {
	var out []topics.Subscription
	for _, s := range subs {
		if w := s.Wrapper; w != nil {
			out = append(out, topics.Subscription{Library: w.Library, Topic: w.Topic, Func: s.Fn.FullName(), At: in.Fset.Position(w.Call.Pos()).String()})
			continue
		}
		if lib, topic := RegistrationTopic(in.Info, in.Defs, in.Models, s.Call); topic != "" {
			out = append(out, topics.Subscription{Library: lib, Topic: topic, Func: s.Fn.FullName(), At: in.Fset.Position(s.Call.Pos()).String()})
		}
	}
	return out
}

// Verdicts says, of each handler of hs declared as a function or method, whether it is
// safe to run again on the same message, for the registrations of it in other packages
// (topics.Join).
func Verdicts(fset *token.FileSet, hs []Handler) []topics.Verdict {
	var out []topics.Verdict
	for _, h := range hs {
		if h.Fn == nil {
			continue
		}
		why, open := safeToRepeat(fset, h, h.Fn.Pkg().Path())
		out = append(out, topics.Verdict{Func: h.Fn.FullName(), Handler: h.Name, Safe: why == "", Why: why, Open: open})
	}
	return out
}

// safeToRepeat says why running h again on the same message is not safe, or "" when it
// is: every effect it reaches is protected or claimed, and none of its calls of the
// program's own interfaces is left unresolved. The runtime middleware does not make it so:
// its key is the delivery's (a task ID), and a second publish is a new delivery. own is the
// path of the handler's package. When calls of the program's own interfaces with no
// implementation in the package's view are all that makes h not safe, it returns them too:
// the program-wide link judges h again by what the whole program implements
// (link.Consumers).
func safeToRepeat(fset *token.FileSet, h Handler, own string) (string, []topics.OpenCall) {
	if why := unsafeEffect(h.Effects); why != "" {
		return why, nil
	}
	if len(h.Unfollowed) > 0 {
		return "it calls " + h.Unfollowed[0] + ", a function value not known", nil
	}
	why, calls := unknownCalls(h.Unresolved, own)
	var open []topics.OpenCall
	for _, o := range calls {
		open = append(open, link.OpenCallOf(fset, o))
	}
	return why, open
}

// jobTopic returns the library and the topic of a handler whose framework names what it
// consumes by the type argument of a parameter (River's Work(ctx, *river.Job[T]): the jobs
// of args type T, topics.TypeName), or "" for the topic.
func jobTopic(models *model.Entries, h Handler) (lib, topic string) {
	if h.Sig == nil {
		return "", ""
	}
	for _, shape := range models.Index.Handlers() {
		if shape.TopicParam == 0 || shape.Framework != h.Framework || h.Sig.Params().Len() < shape.TopicParam {
			continue
		}
		named, ok := types.Unalias(defuse.Deref(h.Sig.Params().At(shape.TopicParam - 1).Type())).(*types.Named)
		ref := shape.Params[shape.TopicParam-1]
		if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != ref.Path || named.Obj().Name() != ref.Name || named.TypeArgs().Len() != 1 {
			continue
		}
		if t := topics.TypeName(named.TypeArgs().At(0)); t != "" {
			return shape.Library, t
		}
	}
	return "", ""
}

// RegistrationTopic returns the library and the constant topic of a modelled registration
// call whose model names its topic argument (topic_arg), or "" for the topic.
func RegistrationTopic(info *types.Info, defs *defuse.Index, models *model.Entries, call *ast.CallExpr) (lib, topic string) {
	r := topicRegistration(info, models, call)
	if r == nil {
		return "", ""
	}
	return r.Library, defs.ConstString(defuse.ArgAt(call, r.Topic-1))
}

// topicRegistration returns the model of call when it is a modelled registration whose
// model names its topic argument (topic_arg), or nil.
func topicRegistration(info *types.Info, models *model.Entries, call *ast.CallExpr) *model.Registration {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return nil
	}
	if e := models.Of(fn); e != nil && e.Registration != nil && e.Registration.Topic > 0 {
		return e.Registration
	}
	return nil
}

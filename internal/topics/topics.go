// Package topics links the messages a program publishes to the handlers it runs for them:
// a handler that enqueues a follow-up task, or publishes an event, whose consumer is in the
// same program is judged by that consumer, not as a message to an unknown reader.
//
// A consumer is a handler registered for a constant topic (an asynq task type pattern, a
// JetStream subject, a Watermill topic) with whether it is safe to run again on the same
// message; a message is a publish whose topic is a constant, in a library's namespace (the
// model's library: an asynq task type never names a NATS subject). Nothing here reads Go
// syntax: the handlers stage finds consumers, the sinks stage names the messages, and both
// meet in the program-wide link (analyzer.Program.Consumers). A typed message (a River job)
// has for topic the name of its type (TypeName).
package topics

import (
	"go/types"
	"slices"
	"strings"
)

// Unsafe starts what a publish's detail adds when its consumers in the program are not
// safe to repeat: ", consumed in this program by H, which is not safe ...".
const Unsafe = ", consumed in this program by "

// Consumer is a handler the program registers for a topic: the library whose topics it
// names, the topic as registered, the handler's name in a chain, where it is registered
// ("file:line:col"), and whether it is safe to run again on the same message (every effect
// it reaches is protected or claimed, and none of its calls is left unresolved).
type Consumer struct {
	Library string `json:"library"`
	Topic   string `json:"topic"`
	Handler string `json:"handler"`
	At      string `json:"at"`
	Safe    bool   `json:"safe,omitempty"`
	// Why says, for a consumer that is not safe, what its handler does that is not.
	Why string `json:"why,omitempty"`
	// Open are the calls of the program's own interfaces its handler makes with no
	// implementation in its package's view, when they are all that makes it not safe: the
	// program-wide link judges it again by what the whole program implements
	// (internal/link's Consumers).
	Open []OpenCall `json:"open,omitempty"`
}

// OpenCall is an interface call a handler's package leaves unresolved: the interface (its
// key in the package's program summary, internal/link.Interface.Key) and the method's
// name key.
type OpenCall struct {
	Recv   string `json:"recv"`
	Method string `json:"method"`
}

// Equal reports whether two consumers say the same.
func (c Consumer) Equal(d Consumer) bool {
	return c.Library == d.Library && c.Topic == d.Topic && c.Handler == d.Handler && c.At == d.At &&
		c.Safe == d.Safe && c.Why == d.Why && slices.Equal(c.Open, d.Open)
}

// Message is a publish a package makes that only the program's consumers could show to be
// safe: the library and the constant topic.
type Message struct {
	Library string `json:"library"`
	Topic   string `json:"topic"`
}

// Table is the consumers of a program.
type Table []Consumer

// Match returns the consumers of tb that a message of lib to topic reaches, in tb's order:
// for asynq the handler of the longest pattern that prefixes the task type (its ServeMux
// runs that one alone), for NATS every subscription whose subject matches (wildcards "*"
// and ">"), for other libraries every consumer of the same topic.
func (tb Table) Match(lib, topic string) []Consumer {
	var out []Consumer
	longest := -1
	for _, c := range tb {
		if c.Library != lib {
			continue
		}
		switch {
		case lib == asynqLibrary:
			if !strings.HasPrefix(topic, c.Topic) || len(c.Topic) < longest {
				continue
			}
			if len(c.Topic) > longest {
				out, longest = out[:0], len(c.Topic)
			}
			out = append(out, c)
		case lib == natsLibrary && subjectMatches(c.Topic, topic):
			out = append(out, c)
		case c.Topic == topic:
			out = append(out, c)
		}
	}
	return out
}

// The libraries whose topics do not match by equality.
const (
	asynqLibrary = "github.com/hibiken/asynq"
	natsLibrary  = "github.com/nats-io/nats.go"
)

// subjectMatches reports whether a NATS subscription subject (tokens split by ".", "*"
// taking one token, a final ">" one or more) matches a published subject.
func subjectMatches(sub, subject string) bool {
	want, got := strings.Split(sub, "."), strings.Split(subject, ".")
	for i, w := range want {
		if w == ">" && i == len(want)-1 {
			return len(got) > i
		}
		if i >= len(got) || (w != "*" && w != got[i]) {
			return false
		}
	}
	return len(want) == len(got)
}

// Linked reports whether any of sent reaches consumers of tb: then analysing the program
// again with tb changes a judgement (a message whose consumers are safe), or what a
// finding says (the consumers that are not).
func (tb Table) Linked(sent []Message) bool {
	for _, m := range sent {
		if len(tb.Match(m.Library, m.Topic)) > 0 {
			return true
		}
	}
	return false
}

// Sort orders consumers by library, topic, handler and position, and removes repeats: a
// program's table, whatever order its packages were analysed in.
func Sort(cs []Consumer) []Consumer {
	slices.SortFunc(cs, func(a, b Consumer) int {
		return strings.Compare(a.Library+"\x00"+a.Topic+"\x00"+a.Handler+"\x00"+a.At, b.Library+"\x00"+b.Topic+"\x00"+b.Handler+"\x00"+b.At)
	})
	return slices.CompactFunc(cs, Consumer.Equal)
}

// Made is what a function returns for a publish, exported as a fact on it: a message its
// library's constructor (of package Pkg) made for Topic (a helper NewEmailTask that returns
// asynq.NewTask(TypeEmail, payload)).
type Made struct {
	Pkg   string
	Topic string
}

// AFact marks Made as an analysis fact.
func (*Made) AFact() {}

func (m *Made) String() string { return "makes(" + m.Pkg + ": " + m.Topic + ")" }

// Subscription is a registration for a topic of a handler declared in another package
// (Func, its full name): that package's Verdict says whether it is safe.
type Subscription struct {
	Library string `json:"library"`
	Topic   string `json:"topic"`
	Func    string `json:"func"`
	At      string `json:"at"`
}

// Verdict is what a handler's own package says of it: its full name, its name in a
// chain, and whether it is safe to run again on the same message (why not, if not).
type Verdict struct {
	Func    string `json:"func"`
	Handler string `json:"handler"`
	Safe    bool   `json:"safe,omitempty"`
	Why     string `json:"why,omitempty"`
	// Open: as Consumer.Open.
	Open []OpenCall `json:"open,omitempty"`
}

// Join makes the consumers of subscriptions from their handlers' verdicts. A handler with
// no verdict (its package was not analysed, or does not take it for a handler) is not
// known to be safe.
func Join(subs []Subscription, verdicts []Verdict) []Consumer {
	by := map[string]Verdict{}
	for _, v := range verdicts {
		by[v.Func] = v
	}
	out := make([]Consumer, 0, len(subs))
	for _, s := range subs {
		c := Consumer{Library: s.Library, Topic: s.Topic, Handler: s.Func, At: s.At, Why: "its handler " + s.Func + " was not analysed"}
		if v, ok := by[s.Func]; ok {
			c.Handler, c.Safe, c.Why, c.Open = v.Handler, v.Safe, v.Why, v.Open
		}
		out = append(out, c)
	}
	return out
}

// TypeName is the topic of a message typed by t (a River job's args type, or a pointer to
// it): "pkg/path.Type", the same on the publish and on the handler; "" for a type that is
// not named.
func TypeName(t types.Type) string {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return ""
	}
	return named.Obj().Pkg().Path() + "." + named.Obj().Name()
}

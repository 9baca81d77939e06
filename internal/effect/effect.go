// Package effect defines what idemlint knows about a function's side effects: the effect kinds
// (which are also the diagnostic categories), how well each is protected against a repeated
// run, and the object fact that carries this knowledge from a package to the packages that
// import it.
//
// The fact is deliberately small and gob-deterministic: no maps, no token.Pos, slices sorted.
// A fact holds, per kind, only the worst guard state seen and the shortest chain that reaches
// it, because that is all a diagnostic at a handler needs.
package effect

import (
	"fmt"
	"slices"
	"strings"
)

// Kind names a class of side effect. Kind values are stable: they are the diagnostic
// categories, the keys of //idemlint:ignore directives and the anchors of docs/checks.md.
type Kind string

// The effect kinds of the core analyzer.
const (
	SQLWrite  Kind = "sql.write"  // a database write that may not converge when repeated
	HTTPWrite Kind = "http.write" // an HTTP request with a non-idempotent method (POST, PATCH)
	EmailSend Kind = "email.send" // an email handed to a mail server
	Payment   Kind = "payment"    // a charge, capture, refund, payout or transfer at a provider
	Publish   Kind = "publish"    // a message published or a job enqueued
	// StoreWrite is a write to a non-SQL store that does not converge: Redis INCR, LPUSH,
	// XADD; Mongo InsertOne; DynamoDB PutItem without a condition.
	StoreWrite Kind = "store.write"
)

// Kinds lists every known kind in a stable order.
var Kinds = []Kind{SQLWrite, HTTPWrite, EmailSend, Payment, Publish, StoreWrite}

// Known reports whether k is a kind idemlint knows.
func Known(k Kind) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// State says how an effect is protected against running twice. The order matters: a lower
// value is worse, and merging keeps the worst.
type State uint8

const (
	// Unprotected: nothing makes a repeat safe.
	Unprotected State = iota
	// UnstableKey: a guard is present but its key changes on every run (random or clock),
	// so a retry is not recognised as a duplicate.
	UnstableKey
	// Keyed: the effect carries a stable key that only names it for its consumers (a
	// RabbitMQ MessageId): the key decision is answered, enforcement is left to each
	// consumer, since the broker delivers the repeat all the same.
	Keyed
	// Claimed: a gate with a stable key (a Redis SETNX, an SQL statement that changes no
	// row twice, checked with an early return) claims the job before the effect, so a
	// redelivery is turned away; a crash between the claim and the effect loses the effect
	// rather than repeating it (at most once). Not reported: the code's own check before
	// the effect is enforcement, and the inventory says "at most once after a crash".
	Claimed
	// Protected: a guard with a stable key, an upsert, or a converging write.
	Protected
)

func (s State) String() string {
	switch s {
	case Unprotected:
		return "unprotected"
	case UnstableKey:
		return "unstable-key"
	case Keyed:
		return "keyed"
	case Claimed:
		return "claimed"
	case Protected:
		return "protected"
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// MaxChain bounds the hops a fact carries. Longer chains are cut in the middle: the handler
// end is reported by the importing package and the sink end names the effect.
const MaxChain = 6

// KeyTurnsAway is what the detail of an INSERT says that a unique key turns away on a
// repeat (statements' enforcedText): the repeat fails with a duplicate-key error rather
// than adding a row. A caller that takes that error as done (gates' duplicate check) or
// drops the call's error (callgraph's dropped.go) makes the repeat change nothing.
const KeyTurnsAway = " fails on a repeat: the unique key "

// CheckedFirst is what a claimed effect's detail says of a gate that is a read before the
// write (an existence check by the job's key, gates.Gate.Lookup): it turns a redelivery away
// only once what it looks up is written, so a crash before that repeats the effect. The
// inventory tells such an effect ("checked first") from one a claim makes at most once.
const CheckedFirst = "turns a redelivery away once what it looks up is written"

// Cut is the Func of the hop that stands, in a chain cut at MaxChain, for the calls left
// out between the first hops and the sink: a message shows "f -> ... -> (*http.Client).Do",
// not a call f never makes. It counts for no hop: not in a chain's depth (Worse), nor in a
// finding's identity (result.Finding.Identity), so a cut chain keeps its fingerprint.
const Cut = "..."

// Hop is one function on a chain from a handler to a sink.
type Hop struct {
	Func string // short qualified name: "billing.Charge", "(*pgxpool.Pool).Exec"
	Pos  string // where the call to Func is, as "file.go:line" (base name only), or ""
}

// Effect is one kind of side effect reachable from a function.
type Effect struct {
	Kind   Kind
	State  State
	Detail string // why, in a few words: "INSERT without conflict handling", "key from uuid.NewString"
	Chain  []Hop  // callees from the function (excluded) down to the sink (included)
	// KeyParams marks a protected effect whose idempotency key is made from string
	// parameters of the function at the start of the chain (bit i: parameter i, the
	// receiver not counted). The effect is only as protected as what each caller passes
	// there: a caller handing in uuid.NewString() makes it an unstable key. Zero when the
	// key does not come from such a parameter, or the effect is not keyed.
	KeyParams uint64
	// Tx says whether the write commits with a database transaction: a job's completion
	// stored in that transaction (River's JobCompleteTx) then commits with it.
	Tx TxMode
	// MethodParam marks an HTTP request whose method is a string parameter of the function
	// at the start of the chain (1 + its index; 0: the method is known). It is an effect
	// only where a caller passes POST or PATCH: until then it is not reported.
	MethodParam uint8
	// RequestParam marks an HTTP request that is a *http.Request parameter of the function
	// at the start of the chain (1 + its index; 0: none), sent there with a method it cannot
	// see (a do(req) helper): each caller's argument decides it, as MethodParam does: the
	// method the caller built it with, its header, or the question passed on (PassRequest).
	RequestParam uint8
	// TextParam marks an SQL write whose statements are a string or []string parameter of
	// the function at the start of the chain (1 + its index; 0: none), queued on a batch
	// (a helper BatchTx(ctx, tx, sqls)), or the batch parameter it sends (flush(ctx, tx,
	// b)): each caller's argument, or what it queued on it, decides it (PassText).
	TextParam uint8
	// KeyArg marks an INSERT the schema says fails on a repeat (every column of a unique
	// key bound to a value the job carries) whose key values are a parameter of the
	// function at the start of the chain, or fields of one (1 + its index; 0: none; a
	// sqlc query's arg.ID): each caller's argument decides it. One that makes the values
	// anew (uuid.New) makes it add a row on every run instead (KeyArgFresh is that Detail);
	// one passing its own parameter passes the question on (PassKeyArg).
	KeyArg uint8
	// KeyArgFields are the fields of the KeyArg parameter that hold the key's values,
	// comma-separated ("" for the parameter itself).
	KeyArgFields string
	// KeyArgFresh is the Detail of the effect when a caller makes the key's values anew.
	KeyArgFresh string
	// OptsParam marks an enqueue whose functional options include the variadic parameter
	// of the function at the start of the chain, spread into the call (1 + its index; 0:
	// none), and no key option of its own (a wrapper Send(ctx, t, opts ...asynq.Option)):
	// a caller that passes a key option there (asynq.TaskID(k)) keys it (PassOptions).
	OptsParam uint8
	// ArgsParam marks a River insert whose job args are an interface parameter of the
	// function at the start of the chain (1 + its index; 0: none), a wrapper AddJob(ctx,
	// args river.JobArgs): a caller that passes args of a type whose InsertOpts declares
	// unique insertion by args makes it unique (PassArgs).
	ArgsParam uint8
	// ReadsParam marks an HTTP POST whose JSON body takes its GraphQL query or JSON-RPC
	// method (ReadsBy says which) from a string parameter of the function at the start of
	// the chain (1 + its index; 0: none), a helper MakeGraphQLRequest(query string, ...):
	// a caller that passes a query, or a reading method, makes it no effect (PassReads).
	ReadsParam uint8
	ReadsBy    BodyRead
	// PayloadParam marks an HTTP POST or PATCH whose JSON body is json.Marshal of an
	// interface parameter of the function at the start of the chain (1 + its index; 0:
	// none), a client's do(ctx, path, payload any): a caller that passes a body that pages
	// (limit and offset, a cursor), asks a model (model and messages), otherwise reads, or
	// is a PATCH's JSON object, makes it no effect (PassReads). On a publish, it marks a
	// message encoded from a struct parameter (a publisher's Send(ctx, ev Event)): a caller
	// that passes a status event protects it (sinks' passStatusEvent).
	PayloadParam uint8
	// ElemsParam marks an effect made only on the elements of a slice or map parameter of
	// the function at the start of the chain (1 + its index; 0: none): inside a range loop
	// over it, an if that tests it for elements, or after an early return when it has none
	// (a send(ctx, pending) helper that sends each delivery). A caller that passes a
	// collection it fills only under a claim (keys claimed one by one and collected) makes
	// it claimed; one passing its own parameter passes the question on (callgraph's
	// passElems).
	ElemsParam uint8
	// TopicParam marks a publish, not protected, whose topic (a subject, a queue, a task
	// type) or the message made for it is a parameter of the function at the start of the
	// chain (1 + its index; 0: none): an application's wrapper Publish(topic string, msgs
	// ...) or enqueue(ctx, task *asynq.Task). Each caller's argument names the topic, and
	// the program's consumers of it judge the publish there, as at a direct call
	// (PassTopic); a caller passing its own parameter passes the question on. Topic says
	// whose publish it is.
	TopicParam uint8
	Topic      *TopicSink
	// Detached marks an effect claimed only because it runs in a goroutine a handler's
	// last act starts and leaves behind (1 + the state it had before; 0: not so): at a
	// call that is not its caller's last act, it has that state again (callgraph's
	// detached.go).
	Detached State
	// Step says whether the effect runs inside a recovery point (the function given to
	// the runtime's idempotency.Step, StepInTx or sqlstore.StepTx: a model's steps and
	// tx_steps), whose result is recorded once it succeeds, so a redelivery after a later
	// failure does not run it again: the job's progress is recorded per step, which
	// answers the partial decision. It answers neither key nor enforcement: a crash inside
	// the step, after the effect and before its record, runs it again on the next
	// delivery; except, in a step recorded in a database transaction (InTxStep), for a
	// write that commits with that transaction.
	Step StepMode
}

// StepMode says whether an effect runs inside a recovery point, and how it is recorded.
type StepMode uint8

const (
	// NoStep: outside any recovery point.
	NoStep StepMode = iota
	// InStep: inside a step whose result is recorded after its function returns
	// (idempotency.Step): a crash before the record repeats the effect.
	InStep
	// InTxStep: inside a step whose result is recorded in the database transaction the
	// step is given (sqlstore.StepTx): a write made on that transaction commits with the
	// record, or neither does.
	InTxStep
)

// Conditional reports whether e is an HTTP request whose method its callers decide (its
// method or the request itself is a parameter): no effect until a caller passes a POST or
// PATCH, and none where the method stays unknown.
func (e Effect) Conditional() bool { return e.MethodParam != 0 || e.RequestParam != 0 }

// TopicSink is what a publish whose topic its callers name (Effect.TopicParam) needs to be
// linked to the program's consumers at the caller that names it: the library whose
// consumers take it, the package whose constructors make its messages (asynq.NewTask),
// and the publish in words ("asynq task enqueued").
type TopicSink struct {
	Library, Pkg, What string
}

// BodyRead says which part of a request a parameter gives (Effect.ReadsParam): of its JSON
// body, or the end of its URL.
type BodyRead uint8

// The parts of a body that decide whether a POST reads.
const (
	NoBodyRead   BodyRead = iota
	GraphQLQuery          // the "query" of a GraphQL request
	RPCMethod             // the "method" of a JSON-RPC call
	URLPath               // the end of the URL: a client's do(ctx, path, body) POSTs to base+path
	BodyText              // the whole body's text: a gqlRequest(body string) helper POSTs what its callers write
)

// TxMode says how an effect relates to a database transaction.
type TxMode uint8

const (
	// TxUnknown: not known (a repository interface, a helper's parameter); a database
	// write may be in the handler's transaction.
	TxUnknown TxMode = iota
	// TxIn: made on a transaction (a *sql.Tx, pgx.Tx) or inserted through one (River's
	// InsertTx): it commits or rolls back with it.
	TxIn
	// TxOutside: made on a pool or connection outside any transaction (*sql.DB,
	// *pgxpool.Pool): it commits on its own, whatever the handler's transaction does.
	TxOutside
)

// txRank orders modes from the best covered to the worst for Worse.
func (m TxMode) txRank() int {
	switch m {
	case TxIn:
		return 0
	case TxOutside:
		return 2
	}
	return 1
}

// Worse reports whether e should replace old for the same kind: a worse state wins; on the
// same state, a shorter chain. On a tie the effect seen first stays: callers visit calls in
// source order, so the first call in a body is the one reported.
func (e Effect) Worse(old Effect) bool {
	if e.Conditional() != old.Conditional() {
		// A request that may turn out to be a GET never hides one known to be a POST:
		// the conditional one is kept only while nothing else of its kind is known.
		return old.Conditional()
	}
	if e.State != old.State {
		return e.State < old.State
	}
	if e.Step != old.Step {
		// Outside a recovery point is worse than inside one (only the first leaves the
		// partial decision open), and a step recorded apart worse than one recorded in
		// the transaction.
		return e.Step < old.Step
	}
	if (e.OptsParam != 0) != (old.OptsParam != 0) {
		// Unprotected only unless callers pass a key option is better than unprotected
		// outright: a caller's key option must not hide the other.
		return old.OptsParam != 0
	}
	if (e.ArgsParam != 0) != (old.ArgsParam != 0) {
		return old.ArgsParam != 0 // as for OptsParam: unique args from a caller
	}
	if (e.TopicParam != 0) != (old.TopicParam != 0) {
		return old.TopicParam != 0 // as for OptsParam: consumers safe to repeat, by a caller's topic
	}
	if e.State == Protected && (e.KeyArg != 0) != (old.KeyArg != 0) {
		// As for KeyParams: an insert safe only while callers do not make its key anew
		// (a dropped duplicate-key error) must not be hidden by one safe outright.
		return e.KeyArg != 0
	}
	if (e.KeyParams != 0) != (old.KeyParams != 0) {
		// Protected only if callers pass a stable key is worse than protected outright:
		// keep the conditional one, so callers get to check what they pass.
		return e.KeyParams != 0
	}
	if e.Tx != old.Tx {
		// Outside any transaction is worse than unknown, which is worse than inside one:
		// a completion stored in the handler's transaction covers only what commits with it.
		return e.Tx.txRank() > old.Tx.txRank()
	}
	return e.Depth() < old.Depth()
}

// Depth is the number of calls e's chain holds, the Cut mark not counted.
func (e Effect) Depth() int {
	n := len(e.Chain)
	if slices.ContainsFunc(e.Chain, func(h Hop) bool { return h.Func == Cut }) {
		n--
	}
	return n
}

func (e Effect) key() string {
	var b strings.Builder
	b.WriteString(e.Detail)
	if e.KeyParams != 0 {
		fmt.Fprintf(&b, "|key=%x", e.KeyParams)
	}
	if e.Tx != TxUnknown {
		fmt.Fprintf(&b, "|tx=%d", e.Tx)
	}
	if e.MethodParam != 0 {
		fmt.Fprintf(&b, "|method=%d", e.MethodParam)
	}
	if e.RequestParam != 0 {
		fmt.Fprintf(&b, "|request=%d", e.RequestParam)
	}
	if e.KeyArg != 0 {
		fmt.Fprintf(&b, "|keyarg=%d:%s", e.KeyArg, e.KeyArgFields)
	}
	if e.TextParam != 0 {
		fmt.Fprintf(&b, "|text=%d", e.TextParam)
	}
	if e.OptsParam != 0 {
		fmt.Fprintf(&b, "|opts=%d", e.OptsParam)
	}
	if e.ArgsParam != 0 {
		fmt.Fprintf(&b, "|args=%d", e.ArgsParam)
	}
	if e.ReadsParam != 0 {
		fmt.Fprintf(&b, "|reads=%d.%d", e.ReadsParam, e.ReadsBy)
	}
	if e.PayloadParam != 0 {
		fmt.Fprintf(&b, "|payload=%d", e.PayloadParam)
	}
	if e.ElemsParam != 0 {
		fmt.Fprintf(&b, "|elems=%d", e.ElemsParam)
	}
	if e.TopicParam != 0 {
		fmt.Fprintf(&b, "|topic=%d:%s", e.TopicParam, e.Topic.Library)
	}
	if e.Detached != 0 {
		fmt.Fprintf(&b, "|detached=%d", e.Detached)
	}
	if e.Step != NoStep {
		fmt.Fprintf(&b, "|step=%d", e.Step)
	}
	for _, h := range e.Chain {
		b.WriteString("|")
		b.WriteString(h.Func)
		b.WriteString("@")
		b.WriteString(h.Pos)
	}
	return b.String()
}

// Prepend returns e as seen from a caller that reaches it through a call to fn at pos.
func (e Effect) Prepend(fn, pos string) Effect {
	chain := make([]Hop, 0, len(e.Chain)+2)
	chain = append(chain, Hop{Func: fn, Pos: pos})
	chain = append(chain, e.Chain...)
	if i := slices.IndexFunc(chain, func(h Hop) bool { return h.Func == Cut }); i > 0 {
		// Already cut: the new hop pushes out the last one before the mark.
		chain = slices.Delete(chain, i-1, i)
	} else if len(chain) > MaxChain {
		// Keep the first hops (they explain the caller's side), the mark and the sink.
		chain = append(chain[:MaxChain-1:MaxChain-1], Hop{Func: Cut}, chain[len(chain)-1])
	}
	e.Chain = chain
	return e
}

// Set holds at most one Effect per kind, sorted by kind. The zero value is empty.
type Set []Effect

// Add merges e into s, keeping the worse effect per kind, and reports whether s changed.
func (s *Set) Add(e Effect) bool {
	for i := range *s {
		if (*s)[i].Kind == e.Kind {
			if e.Worse((*s)[i]) {
				(*s)[i] = e
				return true
			}
			return false
		}
	}
	i := 0
	for i < len(*s) && (*s)[i].Kind < e.Kind {
		i++
	}
	*s = append(*s, Effect{})
	copy((*s)[i+1:], (*s)[i:])
	(*s)[i] = e
	return true
}

// Get returns the effect of kind k, if any.
func (s Set) Get(k Kind) (Effect, bool) {
	for _, e := range s {
		if e.Kind == k {
			return e, true
		}
	}
	return Effect{}, false
}

// Equal reports whether two sets hold the same effects.
func (s Set) Equal(t Set) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i].Kind != t[i].Kind || s[i].State != t[i].State || s[i].key() != t[i].key() {
			return false
		}
	}
	return true
}

// Fact is the object fact idemlint attaches to a function or method (the generic origin)
// that reaches at least one side effect, guarded or not, or that calls a function
// parameter.
type Fact struct {
	Effects Set
	// Calls marks the function-typed parameters the function calls and lets go nowhere
	// else (bit i: parameter i, the receiver not counted), directly, in its closures, or by
	// handing them to a callee that only calls them: a callback passed there runs inside the
	// call, so its effects are the caller's through this function.
	Calls uint64
	// CompletesInTx: the function stores the job's completion in its own database
	// transaction (River's JobCompleteTx, the runtime's sqlstore CompleteTx), directly or
	// through a callee, so its database writes and the completion commit together.
	CompletesInTx bool
	// Claim, when set, says that a result of the function reports a claim (see Claim).
	Claim *Claim
	// Registers lists the parameters that reach a framework's registration (a wrapper such
	// as Register(mux, pattern, fn) or Consume(ctx, sub, f)), sorted by parameter: what a
	// caller passes there is a handler of that framework.
	Registers []ParamReg
	// Checks is the framework of a webhook whose signature the function checks (a modelled
	// handler call in its body), when it is no net/http handler itself: a service method.
	// Its callers in other packages take over the role of the delivery's handler, as an
	// HTTP handler of its own package would.
	Checks string
	// Request, when set, says that the function's first result is an HTTP request it
	// builds (a newRequest helper): what its callers send is read from it (see Request).
	Request *Request
	// Receives is the framework of the receive call whose result the function returns (a
	// helper that polls and hands the batch back): a call of it is a receive call of the
	// caller, whose loop is the handler. "" for other functions.
	Receives string
	// Guards: the function's first result is a query builder whose chain calls a chain
	// guard or builds a guard type (a gorm *DB given Clauses(clause.OnConflict{...}) by an
	// OnConflictUpdate helper): a write its callers chain on it is guarded.
	Guards bool
}

// ParamReg says that a function hands its parameter Param to a framework as a handler:
// to a modelled registration, directly or in a closure it registers, to another function's
// registration parameter, or to its own calls after pulling messages (Fetch, then f(msgs)).
type ParamReg struct {
	Param     uint8  // the parameter's index, the receiver not counted
	Framework string // the framework the handler is registered with
	// Methods: the parameter reaches a registration of a value's exported methods
	// (Temporal's RegisterActivity): a struct passed there registers them all.
	Methods bool
	// Once says why what is passed there runs at most once per message, or "": the
	// wrapper's loop acknowledges each message before it calls the parameter.
	Once string
	// Method names the method the wrapper calls on the parameter, an interface value
	// (h.Handle(ctx, msg)), or "": the handler is that method of the value passed.
	Method string
	// Factory: the parameter is a function that makes the handler (a pool's
	// HandlerFactory, called once per consumer): what it returns is registered.
	Factory bool
	// Topic is 1 + the index of the wrapper's parameter that holds the topic the
	// registration takes (Register(topic string, h) handing h to a Watermill router under
	// topic), 0 for none; Library is the library in which it names topics.
	Topic   uint8
	Library string
}

// Claim says that a function's result reports a claim its body makes (a helper that
// returns `updated bool` from a conditional UPDATE): its callers can check it with an early
// return, as they would the statement's affected-row count.
type Claim struct {
	Result uint8     // the result's index
	Read   ClaimRead // how the result says whether the claim was made
	What   string    // the claim in words, with its position: "conditional UPDATE at repo.go:12"
	// On and Table are a ReadLocked claim's: what the locking read is made on (1 + the
	// index of the parameter, or OnRecv) and the table it locks, upper case.
	On    uint8
	Table string
}

// OnRecv is a ReadLocked claim's On when the read is made on the receiver (sqlc's Queries,
// made WithTx(tx) by the caller).
const OnRecv = 255

// Same reports whether two claims are read the same way by a caller.
func (c *Claim) Same(o *Claim) bool {
	return c.Result == o.Result && c.Read == o.Read && c.On == o.On && c.Table == o.Table
}

// Request says what a function that builds and returns an HTTP request (its first result)
// puts in it, for the callers that send it: its method, or the string parameter that holds
// it, whether it reads, and the Idempotency-Key header it sets.
type Request struct {
	Method      string // the method, upper case ("POST", "GET"); "" when MethodParam holds it
	MethodParam uint8  // 1 + the index of the string parameter that holds the method; 0: none
	Reads       bool   // its URL or body says it reads (a token grant, a GraphQL query)
	Header      Header // the Idempotency-Key header it sets on the request
}

// Header says whether a request carries an Idempotency-Key header, and how good its key is.
type Header uint8

// The headers a built request carries.
const (
	NoHeader       Header = iota
	StableHeader          // a key from the job, or from the builder's parameters
	UnstableHeader        // a random, clock, constant or job-independent key
)

// ClaimRead says how a result reports a claim.
type ClaimRead uint8

// The ways a result reports a claim.
const (
	ReadTrue   ClaimRead = iota + 1 // a bool, true when the claim was made
	ReadCount                       // a row count, 0 when the claim failed
	ReadNoRows                      // an error, ErrNoRows when the claim failed
	ReadErr                         // an error, not nil when the claim failed (a conditional put's)
	// ReadLocked: the result is a row read FOR UPDATE on what the caller passes (Claim.On):
	// locked until the caller's transaction ends, when it passes one. The row is no claim
	// by itself: a caller that returns on the state it read and writes that state on the
	// same transaction makes one.
	ReadLocked
	// ReadRows: the result is the rows a statement that claims them returned (UPDATE ...
	// SET status = 'fired' WHERE status = 'scheduled' RETURNING *, a sqlc :many query): each
	// row once, so the work a caller does over them is done once per row.
	ReadRows
)

// AFact marks Fact as an analysis fact.
func (*Fact) AFact() {}

// String is what analysistest matches in `// want name:"..."` fact expectations:
// kinds with their state and the sink, e.g. "effects payment:unprotected(paymentintent.New)",
// then "completes-in-tx", "calls-params(1)" and "registers(2 asynq)" when they hold.
func (f *Fact) String() string {
	parts := make([]string, len(f.Effects))
	for i, e := range f.Effects {
		sink := ""
		if n := len(e.Chain); n > 0 {
			sink = e.Chain[n-1].Func
		}
		parts[i] = fmt.Sprintf("%s:%s(%s)", e.Kind, e.State, sink)
		if e.KeyParams != 0 {
			parts[i] += fmt.Sprintf("[key from params %s]", bits(e.KeyParams))
		}
		if e.MethodParam != 0 {
			parts[i] += fmt.Sprintf("[method from param %d]", e.MethodParam-1)
		}
		if e.RequestParam != 0 {
			parts[i] += fmt.Sprintf("[request from param %d]", e.RequestParam-1)
		}
		if e.TextParam != 0 {
			parts[i] += fmt.Sprintf("[statements from param %d]", e.TextParam-1)
		}
		if e.KeyArg != 0 {
			parts[i] += fmt.Sprintf("[unique key from params %s]", e.KeyArgFields)
		}
		if e.OptsParam != 0 {
			parts[i] += fmt.Sprintf("[options from param %d]", e.OptsParam-1)
		}
		switch {
		case e.ReadsParam != 0 && e.ReadsBy == URLPath:
			parts[i] += fmt.Sprintf("[url from param %d]", e.ReadsParam-1)
		case e.ReadsParam != 0 && e.ReadsBy == BodyText:
			parts[i] += fmt.Sprintf("[body text from param %d]", e.ReadsParam-1)
		case e.ReadsParam != 0:
			parts[i] += fmt.Sprintf("[body from param %d]", e.ReadsParam-1)
		}
		if e.PayloadParam != 0 {
			parts[i] += fmt.Sprintf("[payload from param %d]", e.PayloadParam-1)
		}
		if e.ElemsParam != 0 {
			parts[i] += fmt.Sprintf("[on the elements of param %d]", e.ElemsParam-1)
		}
		if e.TopicParam != 0 {
			parts[i] += fmt.Sprintf("[topic from param %d]", e.TopicParam-1)
		}
		if e.Detached != 0 {
			parts[i] += "[left to a goroutine]"
		}
		switch e.Step {
		case InStep:
			parts[i] += "[step]"
		case InTxStep:
			parts[i] += "[tx step]"
		}
	}
	var s []string
	if len(parts) > 0 {
		s = append(s, "effects "+strings.Join(parts, " "))
	}
	if f.CompletesInTx {
		s = append(s, "completes-in-tx")
	}
	if f.Calls != 0 {
		s = append(s, "calls-params("+bits(f.Calls)+")")
	}
	if f.Guards {
		s = append(s, "guards-builder")
	}
	if f.Claim != nil {
		if f.Claim.Read == ReadLocked {
			s = append(s, fmt.Sprintf("locks(result %d)", f.Claim.Result))
		} else {
			s = append(s, fmt.Sprintf("claims(result %d)", f.Claim.Result))
		}
	}
	if r := f.Request; r != nil {
		m := r.Method
		if r.MethodParam != 0 {
			m = fmt.Sprintf("param %d", r.MethodParam-1)
		}
		s = append(s, "builds-request("+m+")")
	}
	if f.Receives != "" {
		s = append(s, "receives("+f.Receives+")")
	}
	for _, r := range f.Registers {
		methods := ""
		if r.Methods {
			methods = " methods"
		}
		if r.Factory {
			methods += " factory"
		}
		if r.Method != "" {
			methods += " ." + r.Method
		}
		if r.Once != "" {
			methods += " once"
		}
		if r.Topic != 0 {
			methods += fmt.Sprintf(" topic from param %d", r.Topic-1)
		}
		s = append(s, fmt.Sprintf("registers(%d %s%s)", r.Param, r.Framework, methods))
	}
	if f.Checks != "" {
		s = append(s, "checks("+f.Checks+")")
	}
	return strings.Join(s, " ")
}

// PackageFact marks a package that exports at least one Fact, so that importers whose
// dependencies carry no effects and name no modelled package can skip the analysis.
type PackageFact struct{}

// AFact marks PackageFact as an analysis fact.
func (*PackageFact) AFact() {}

func (*PackageFact) String() string { return "has effects" }

// bits renders a parameter mask as "0,2".
func bits(m uint64) string {
	var out []string
	for i := 0; i < 64; i++ {
		if m&(1<<i) != 0 {
			out = append(out, fmt.Sprint(i))
		}
	}
	return strings.Join(out, ",")
}

// KindList renders Kinds for messages: "sql.write, http.write, ...".
func KindList() string {
	s := make([]string, len(Kinds))
	for i, k := range Kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// Known returns the effects of s a function has for sure: not a request whose method (or
// the request itself) is a parameter (a handler is called by its framework, which passes
// no method).
func (s Set) Known() Set {
	return slices.DeleteFunc(slices.Clone(s), Effect.Conditional)
}

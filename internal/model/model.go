// Package model holds what idemlint knows about libraries: which functions perform side
// effects (sinks), how their arguments say whether a repeat is safe, which functions and
// types are job or message handlers, and which values change on every run.
//
// Models are data keyed by full names in the style of (*types.Func).FullName, for example
// "(*database/sql.DB).ExecContext". Module major-version suffixes are matched loosely:
// a model written for ".../stripe-go/v82" also matches v83 and later, because SDKs bump
// their major version often while the functions the models name stay put.
//
// A model file's top-level keys are its roles. One table of them (roles in roles.go) drives
// the loading (checking a decoded File into a Library), the compiling of Libraries into the
// Index the analyzer looks callees up in, and NamesOf: a new model field is a row there, the
// fields it fills (File, Library, and Entry or an Index lookup) and the analyzer code that
// gives it meaning.
package model

import (
	"go/types"
	"slices"
	"sort"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
)

// Shape says how a sink's arguments decide whether one call is safe to repeat.
type Shape uint8

const (
	// SQLExec runs the statement in Arg; text the analyzer cannot read is reported.
	SQLExec Shape = iota + 1
	// SQLQuery runs the statement in Arg for its rows; it is a write only when the text
	// says so (INSERT ... RETURNING, a writable CTE). Unknown text is taken as a read.
	SQLQuery
	// SQLBatch sends the statements queued on the batch in Arg (pgx.Batch.Queue).
	SQLBatch
	// SQLCopy is a bulk copy into a table: never idempotent by itself.
	SQLCopy
	// SQLPrepared executes a prepared statement (the receiver); the text is the one given
	// to Prepare when the analyzer can see it.
	SQLPrepared
	// HTTPDo sends the request in Arg; the method and headers come from where the request
	// was built and changed in the same function.
	HTTPDo
	// HTTPPost always sends a POST and offers no way to set a header.
	HTTPPost
	// HTTPForm POSTs the form values in Arg and offers no way to set a header; a form that
	// asks for a token (an OAuth2 grant_type) reads and is not an effect.
	HTTPForm
	// Send is an effect with no deduplication handle at all (SMTP and most mail APIs).
	Send
	// ProviderParams calls a provider whose params in Arg may carry an idempotency key.
	ProviderParams
	// Options takes functional options (anywhere in its arguments) of which one may carry a
	// deduplication key: asynq.TaskID, JetStream's WithMsgID.
	Options
	// KeyArg takes the idempotency key itself as argument Arg (a company's own client:
	// PostJSON(ctx, url, body, key)); an empty string constant is no key.
	KeyArg
	// Builder ends a query-builder chain (gorm Create, ent Exec, bun Exec); it is guarded
	// when the chain calls a chain guard (ent OnConflict, bun On) or builds a guard type
	// (gorm clause.OnConflict). An HTTP request-builder chain (resty Post) is guarded when it
	// calls a header setter with an idempotency header and a stable value. When Arg is set it
	// is the HTTP method argument (resty Execute): only POST and PATCH are effects.
	Builder
	// Relative is a setter of generated code that adds to a stored number (ent's
	// AddBalance): the write it feeds does not converge when repeated. It is made from a
	// Generated model, not written in a sink entry.
	Relative
	// UpdateExpression writes with the update expression in the params field Field (DynamoDB
	// UpdateItem): an effect only when the constant text is relative (ADD, SET a = a + :n,
	// list_append); it is guarded then by a condition field or a key field on the params.
	UpdateExpression
	// UpdateValues sets columns to values (gorm Update(column, value), UpdateColumn,
	// Updates(map[string]any{...})): Arg is the column name, its value the next argument, or
	// a map of column to value. It is an effect only when a value is an SQL expression (a
	// call of a sql_exprs function, gorm.Expr) that adds to the column it sets.
	UpdateValues
	// NameArg writes under the name in argument Arg (an object's name in a bucket), replacing
	// what is stored there: a repeat converges, so it is an effect only when the name is
	// made anew on every run (a random or clock source), which stores a new object each time.
	// With Field the name is that field of the params in Arg (S3's PutObjectInput.Key); with
	// Receiver it is whatever the receiver was made from (GCS's bucket.Object(name)).
	NameArg
)

// shapeNames are the names of the shapes in model files.
var shapeNames = map[string]Shape{
	"sql.exec":          SQLExec,
	"sql.query":         SQLQuery,
	"sql.batch":         SQLBatch,
	"sql.copy":          SQLCopy,
	"sql.prepared":      SQLPrepared,
	"http.do":           HTTPDo,
	"http.post":         HTTPPost,
	"http.form":         HTTPForm,
	"send":              Send,
	"provider.params":   ProviderParams,
	"options":           Options,
	"key.arg":           KeyArg,
	"name.arg":          NameArg,
	"builder":           Builder,
	"update.expression": UpdateExpression,
	"update.values":     UpdateValues,
}

// Sink is a function or method that performs a side effect.
type Sink struct {
	Func  string      // full name
	Kind  effect.Kind // what it does
	Shape Shape       // how to read its arguments
	Arg   int         // index of the statement, request or params argument (receiver not counted)
	What  string      // the effect in words for messages: "HTTP POST", "email", "payment"
	// InTx: the sink is given a database transaction (its model's tx_arg) and its effect
	// commits with it (River's InsertTx).
	InTx bool
	// Field is the params field ("pkg.Type.Field") holding the update expression, for shape
	// UpdateExpression, or the object's name, for shape NameArg.
	Field string
	// URLArg is the index of the URL argument of an http.post, http.form or builder sink,
	// -1 when the model gives none: a POST to a read endpoint is no effect.
	URLArg int
	// ConsumerKey: a key field names the message for its consumers to deduplicate, and the
	// broker does not (a RabbitMQ MessageId). A stable one answers the key decision only:
	// enforcement stays open (effect.Keyed).
	ConsumerKey bool
	// Unkeyed replaces "without an idempotency key" in the Problem of a call with no key
	// (the model's unkeyed: "with no document id (the index makes a new document each
	// time)").
	Unkeyed string
	// Receiver: the params are the call's receiver (a request value whose Do sends it), for
	// shape ProviderParams, or the receiver names the object written, for shape NameArg;
	// Arg is then -1.
	Receiver bool
	// Topic is 1 + the index of the argument that names where a publish goes, 0 for none
	// (see SinkEntry.TopicArg); Library is the model's library, in which topics are named.
	Topic   int
	Library string
	// TopicType: the topic is the named type of the value at Topic (a River job's args
	// type), "pkg/path.Type"; TopicField, for a batch, the field of each element that holds
	// the value (InsertManyParams.Args).
	TopicType  bool
	TopicField string
}

// ReceiveChannel is a call whose result is a channel of deliveries (RabbitMQ's Consume).
type ReceiveChannel struct {
	Func       string // full name
	Framework  string // the library's name
	Element    string // the channel's element type, pkg/path.Type
	AutoAckArg int    // index of the auto-acknowledge argument, -1 for none
}

// Problem is the sentence a finding uses for an unprotected call of this sink.
func (s *Sink) Problem() string {
	switch s.Shape {
	case Send:
		return s.What + " sent with no deduplication"
	case Options:
		return s.What + " without a deduplication id"
	case UpdateExpression:
		return s.What + " with a relative update expression and no condition"
	case Builder:
		if s.Kind == effect.HTTPWrite {
			return s.What + " without an Idempotency-Key header"
		}
		return s.What + " without conflict handling"
	default:
		if s.Unkeyed != "" {
			return s.What + " " + s.Unkeyed
		}
		return s.What + " without an idempotency key"
	}
}

// Gate is a call that claims a job before its effects: it sets a key only when the key is
// absent and reports whether it did (Redis SETNX, HSETNX), or fails with an error when a
// condition its params carry fails (a DynamoDB PutItem with attribute_not_exists). A handler
// that returns early when the claim fails runs the effects after the check at most once per
// key.
type Gate struct {
	Func string // full name
	// KeyArgs are the indexes of the arguments that together name the claim (receiver not
	// counted): SETNX's key; HSETNX's key and field.
	KeyArgs []int
	// Params, for a claim made by a condition, is 1 + the index of the params argument that
	// must set a condition field (ConditionFields) for the call to claim anything; 0 for a
	// claim by key. Such a claim fails with the call's error result, and its key is the
	// item the params name, not judged.
	Params int
	// DuplicateField, for a claim whose first result is a struct, is the name of its bool
	// field that is true when the claim failed (River's JobInsertResult
	// .UniqueSkippedAsDuplicate): the result is read through it, never as a whole.
	DuplicateField string
	// TxArg is 1 + the index of the transaction argument of a claim made on it (River's
	// InsertTx), 0 for one that commits on its own: such a claim holds only until the
	// transaction commits, so it guards only the calls made on that transaction.
	TxArg int
	What  string // the gate in words for messages: "Redis SETNX"
}

// TypeRef names a (possibly pointer to a) named type, or a predeclared type when Path is "".
// Type arguments of generic types are not compared: a River job of any args type matches.
type TypeRef struct {
	Slice bool // a slice of the type (of pointers, with Ptr)
	Ptr   bool
	Path  string
	Name  string
}

// HandlerShape is the signature of a job or message handler of one framework.
type HandlerShape struct {
	Framework string    // "asynq", "river", "watermill"
	Method    string    // for methods: the method name the framework calls; "" for functions
	Params    []TypeRef // parameter types, in order
	Results   []TypeRef // result types, in order
	// TopicParam is 1 + the index of the parameter whose type argument names the topic the
	// handler consumes (River's *river.Job[T]: "pkg/path.T"), 0 for none; Library is the
	// model's library, in which topics are named.
	TopicParam int
	Library    string
}

// Registration is a call that hands a handler to a framework. The analyzer looks at its
// handler argument to see whether the runtime middleware wraps it.
type Registration struct {
	Func      string // full name
	Arg       int    // index of the handler argument
	Framework string // shown in reports; the library's name when empty
	// Methods, when set, says a value of a named type passed as the handler registers all
	// its exported methods (Temporal's RegisterActivity with a struct of activities).
	Methods bool
	// Topic is 1 + the index of the argument naming what the handler consumes, 0 for
	// none; Library is the model's library, in which topics are named.
	Topic   int
	Library string
}

// Library groups the models of one library, for documentation and for the real-API check.
type Library struct {
	Name          string
	Sinks         []Sink
	Handlers      []HandlerShape
	Registrations []Registration
	// Unstable lists functions whose results differ on every call (random or clock),
	// and so make no idempotency key. An entry ending in ".*" names a whole package.
	Unstable []string
	// KeyFields are struct fields that carry a provider idempotency key ("pkg.Type.Field"),
	// KeySetters the methods that set one ("(*pkg.Type).Method"); the key is the first
	// argument of a setter.
	KeyFields  []string
	KeySetters []string
	// KeyOptions are functional options whose first argument is a deduplication key
	// (asynq.TaskID): a call of an Options sink passing one is guarded.
	KeyOptions []string
	// ChainGuards are calls that, anywhere in a Builder sink's receiver chain, make the
	// write an upsert; GuardTypes are types whose literal there does ("pkg.Type").
	ChainGuards []string
	GuardTypes  []string
	// Records are calls whose first argument is the record an ORM insert writes: the
	// builder sink itself (GORM Create) or a call in its receiver chain (bun Model). The
	// record's struct type names the table, its fields the columns, which the schema judges.
	Records []string
	// SyncEvents are event types a handler receives only when its caller waits for the
	// answer (Lambda behind API Gateway): the caller sees the error and no queue retries
	// the call, so a handler taking one runs at most once per request.
	SyncEvents []string
	// HeaderSetters are request-builder methods that set headers: (name, value string), or
	// one map[string]string of names to values (resty SetHeader, SetHeaders). In a Builder
	// sink's chain, one that sets an idempotency header (IdempotencyHeaders) gives the key.
	HeaderSetters []string
	// ConditionFields are params fields whose constant text, when it contains one of the
	// strings, makes the write safe to repeat by itself (a DynamoDB ConditionExpression with
	// attribute_not_exists: the repeat fails its condition). They count as a key on the
	// params of provider.params and update.expression sinks, with no key checks.
	ConditionFields []ConditionField
	// TxCompletions are calls that store the job's completion in the handler's own
	// transaction (River's JobCompleteTx, the runtime's sqlstore CompleteTx): database writes
	// and the completion commit together, which answers the partial decision for them.
	TxCompletions []string
	// TxnOffsets are calls that add the consumed message's offset to a producer's
	// transaction (sarama's AddMessageToTxn, AddOffsetsToTxn): what that producer sends in
	// the transaction commits with the offset, exactly once for read_committed consumers.
	TxnOffsets []string
	// TxTypes are types whose calls run in a database transaction ("database/sql.Tx"),
	// PoolTypes those whose calls commit on their own ("database/sql.DB"): a write on a
	// pool is not covered by a job completion stored in the handler's transaction.
	TxTypes   []string
	PoolTypes []string
	// HandlerCalls are functions whose call makes the calling function a handler: a
	// net/http handler that verifies a webhook signature (stripe webhook.ConstructEvent)
	// handles a delivery that the sender retries until it succeeds.
	HandlerCalls []string
	// ReceiveCalls are calls that receive a message (or a batch) that the caller handles
	// itself, usually in a loop (sub.Fetch, reader.FetchMessage, sqs ReceiveMessage): the
	// code after the call, to the end of the innermost loop around it (or of the function),
	// is a handler.
	ReceiveCalls []string
	// ReceiveChannels are calls that return a channel of deliveries (RabbitMQ's Consume): the
	// code after a receive from a channel of their element type, to the end of the loop or
	// select case around it, is a handler (handlers/channels.go).
	ReceiveChannels []ReceiveChannel
	// AckCalls acknowledge, commit or delete a received message (d.Ack, CommitMessages,
	// DeleteMessage, XAck): a receive loop's handler ends at the first one in its body, since
	// after it a crash no longer redelivers the message.
	AckCalls []string
	// SQLExprs are functions that make an SQL expression of their first argument's text,
	// used as a value by an update.values sink (gorm.Expr("balance + ?", n)).
	SQLExprs []string
	// InProcessDedup are deduplicating middleware that remember the messages they have seen
	// in the process's memory (Watermill's Deduplicator): a handler registered on a router
	// that uses one is still reported, with the note that the deduplication does not
	// survive a restart nor span instances.
	InProcessDedup []Dedup
	// Gates are calls that claim a job before its effects (Redis SETNX): effects after a
	// check that returns when the claim fails are not repeated by a redelivery.
	Gates []Gate
	// Generated describes code the library generates into each project.
	Generated []Generated
	// OpaqueCalls are interface methods whose calls are not resolved to the implementations
	// in view, because those are not what runs: ent's hook chain calls Mutator.Mutate, which
	// the generated Client implements by dispatching to every builder, while the builder's
	// own write is reached directly.
	OpaqueCalls []string
	// Reads are functions and methods that only read, whatever their bodies or their
	// library's facts say: an OAuth2 token source, a client's lookup that is sent as a POST.
	// A call of one has no effects.
	Reads []string
	// Neutral are functions, methods and whole packages (pkg/path.*) whose effects are not
	// the business's: logging, metrics, tracing, error reporting.
	Neutral []string
	// ReadEndpoints are URL paths ("/oauth/token", "/access/ticket") whose POST reads: a
	// login or token endpoint, a search, a stateless computation. An HTTP POST or PATCH
	// whose URL path ends with one is not an effect.
	ReadEndpoints []string
	// ReplySubjects are fields and methods that give the subject a received message asks
	// its answer on (NATS Msg.Reply): a publish there answers a waiting request and is no
	// publish of the handler's own.
	ReplySubjects []string
	// AppendOnly are tables that take a new row on every run by design (attempts, runs, an
	// audit log): an INSERT into one without conflict handling is not reported.
	AppendOnly []string
	// MessageIterators are methods that call the callback they are given with each message
	// of their receiver, a received batch (franz-go's Fetches.EachRecord): the callback's
	// parameters carry what was received, and a consumer loop that hands one of them to its
	// own callback parameter is a registration wrapper.
	MessageIterators []string
	// Steps are calls that run their function arguments as recovery points (the runtime's
	// idempotency.Step, StepInTx, sqlstore.StepTx): a step's result is recorded once its
	// function succeeds, and a later delivery of the job gets it back without running the
	// function again. The effects those functions reach are the job's progress recorded per
	// step (effect.Effect.Step), which answers the partial decision for them, and nothing else:
	// a crash inside the step before its record repeats them.
	Steps []string
	// TxSteps are Steps that record the step's result in the database transaction they are
	// given (sqlstore.StepTx): a write the function makes on a transaction commits with the
	// record, so a redelivery never repeats it.
	TxSteps []string
	// ReviewCalls are calls that mark a handler's error as asking for manual review (the
	// runtime's idempotency.NeedsReview): a handler whose body calls one answers the partial
	// decision with manual review.
	ReviewCalls []string
	// Source is the model file the library was read from, or "" for code.
	Source string
}

// Dedup is a deduplicating middleware that remembers messages in memory only.
type Dedup struct {
	Func string // full name of the middleware function or method handed to the router
	What string // its name in messages: "Watermill's Deduplicator"
}

// Generated describes code a library generates into each project (ent's builders). Its type
// names differ from project to project, so its methods are matched by name, on receivers
// declared in a package that imports Imports (the generated package does; user code
// rarely does directly).
type Generated struct {
	Imports string      // import path every generated package imports
	Kind    effect.Kind // the effect the guards answer and the relative setters make
	// ChainGuards are method names that, called anywhere in the receiver chain of a call
	// into the generated package, make the write it reaches an upsert: effects of Kind from
	// that call count as protected (ent's OnConflict).
	ChainGuards []string
	// Relative are name prefixes of builder setters that add to a numeric field: a method
	// named prefix+Field with one numeric parameter that returns its receiver's type (ent's
	// AddBalance). Its call is a sink of Kind.
	Relative []string
	What     string // the relative write in words for messages
}

// ConditionField is a params field that guards a write when its text contains one of
// Contains (compared without regard to case).
type ConditionField struct {
	Field    string // "pkg/path.Type.Field"
	Contains []string
}

// MiddlewarePath is the import path of idemlint's runtime middleware module. A handler
// wrapped by a call into it where it is registered counts as claimed by the middleware.
const MiddlewarePath = "github.com/chokaq/idemlint/idempotency"

// RetentionCalls are the runtime middleware's calls that set the completion retention
// explicitly (the checklist's ttl decision): the option, and the constructor for jobs that
// report their own retention.
var RetentionCalls = []string{MiddlewarePath + ".WithRetention", MiddlewarePath + ".NewForJob"}

// ReviewOptions are the runtime middleware's options that choose the handler errors which
// ask for manual review (the key is marked failed instead of retried): a handler handed to
// a middleware built with one answers the partial decision with manual review.
var ReviewOptions = []string{MiddlewarePath + ".WithNeedsReview"}

// IdempotencyHeaders are the request headers (lower case) that carry an idempotency key.
var IdempotencyHeaders = []string{"idempotency-key", "x-idempotency-key"}

// DeliveryHeader reports whether a request header names the delivery of a webhook as the
// Standard Webhooks specification defines it ("webhook-id", and Svix's "svix-id"): its
// receivers are to deduplicate on it, so its value, when it names the delivery and not the
// attempt, is the webhook's idempotency key. An application's own delivery header
// (X-Forge-Delivery-ID) is not by itself: its receivers, a chat platform's incoming webhook
// among them, need not know it; on a request signed for its receiver it is one
// (sinks/requests' signedwebhooks.go).
func DeliveryHeader(name string) bool {
	n := strings.ToLower(name)
	return n == "webhook-id" || n == "svix-id"
}

// Normalize removes module major-version suffixes from a full name so that one model
// entry matches every major version of a module ("/v82/" and "/v5." become "/" and ".").
// A path element is a version suffix when it is "v" and digits, followed by "/", ".", ")"
// or the end. It runs on every distinct callee, so it scans by hand instead of with a regexp.
func Normalize(name string) string {
	i := strings.Index(name, "/v")
	if i < 0 {
		return name
	}
	var b strings.Builder
	cut := false
	for i >= 0 {
		j := i + 2
		for j < len(name) && name[j] >= '0' && name[j] <= '9' {
			j++
		}
		if j > i+2 && (j == len(name) || name[j] == '/' || name[j] == '.' || name[j] == ')') {
			if !cut {
				b.Grow(len(name))
				cut = true
			}
			b.WriteString(name[:i])
			name = name[j:]
			i = strings.Index(name, "/v")
			continue
		}
		next := strings.Index(name[i+2:], "/v")
		if next < 0 {
			break
		}
		i += 2 + next
	}
	if !cut {
		return name
	}
	b.WriteString(name)
	return b.String()
}

// Entry is everything the models say about one function or method, so that a caller looks
// each callee up once (by its full name) and then reads every role from the entry.
type Entry struct {
	Sink         *Sink
	Registration *Registration
	Gate         *Gate
	HandlerCall  string // framework, when a call makes the caller a handler
	Receive      string // framework, when a call receives a message the caller handles in place
	// ReceiveChannel is set on a call that returns a channel of deliveries.
	ReceiveChannel *ReceiveChannel
	Ack            bool // acknowledges a received message (AckCalls)
	SQLExpr        bool // makes an SQL expression of its first argument (gorm.Expr)
	TxCompletion   bool
	TxnOffset      bool // adds the consumed offset to the producer's transaction (TxnOffsets)
	ChainGuard     bool
	Record         bool // its first argument is the record an ORM insert writes (Records)
	HeaderSetter   bool
	KeyOption      bool
	KeySetter      bool
	Unstable       bool
	// InProcessDedup names an in-memory deduplicating middleware ("" for other functions).
	InProcessDedup string
	// GuardKind is set on a generated chain guard: the kind of effect it protects when it
	// is in the receiver chain of a call whose effects come from a fact.
	GuardKind effect.Kind
	// Opaque is set on an interface method whose calls are not resolved (OpaqueCalls).
	Opaque bool
	// Read is set on a function that only reads (Reads): its calls have no effects.
	Read bool
	// Neutral is set on a function whose effects are not the business's (Neutral, the
	// telemetry packages, an application's logger method): its calls have no effects.
	Neutral bool
	// ReplySubject is set on a field or method that gives a message's reply subject.
	ReplySubject bool
	// Iterator is set on a method that calls its callback with each message of its
	// receiver (MessageIterators).
	Iterator bool
	// Step is set on a call that runs its function arguments as recovery points (Steps),
	// TxStep on one that records them in the database transaction it is given (TxSteps).
	Step, TxStep bool
	// Review is set on a call that asks for manual review of the job (ReviewCalls).
	Review bool
}

// none is the entry of a function the models do not name.
var none = &Entry{}

// Index is the compiled form of a set of libraries: one map from normalized full name to
// everything the models say about that function, and the few lookups by other keys.
type Index struct {
	entries      map[string]*Entry
	methodSinks  map[string][]*Sink // sinks that are methods, by method name, sorted
	methodGates  map[string][]*Gate // claims made by a condition that are methods, by method name
	unstablePkgs map[string]bool    // packages all of whose functions are unstable
	neutralPkgs  map[string]bool    // packages all of whose functions are neutral (Neutral)
	keyFields    map[string]bool
	conditions   map[string][]string // condition fields: the strings that make them guard
	guardTypes   map[string]bool
	syncEvents   map[string]bool
	txModes      map[string]effect.TxMode // TxTypes and PoolTypes
	dedupPkgs    map[string]bool          // packages of InProcessDedup middleware
	handlers     []HandlerShape
	packages     map[string]bool // normalized package paths any model names
	generated    []*Generated
	readPaths    []string                   // ReadEndpoints
	appendOnly   map[string]bool            // AppendOnly, lower case
	deliveries   map[string]*ReceiveChannel // ReceiveChannels by normalized element type
}

// Compile builds an Index over libs: each role (roles.go) adds its entries of each library.
func Compile(libs []Library) *Index {
	ix := &Index{
		entries:      map[string]*Entry{},
		methodSinks:  map[string][]*Sink{},
		methodGates:  map[string][]*Gate{},
		unstablePkgs: map[string]bool{},
		neutralPkgs:  map[string]bool{},
		keyFields:    map[string]bool{},
		conditions:   map[string][]string{},
		guardTypes:   map[string]bool{},
		syncEvents:   map[string]bool{},
		txModes:      map[string]effect.TxMode{},
		dedupPkgs:    map[string]bool{},
		packages:     map[string]bool{},
		appendOnly:   map[string]bool{},
		deliveries:   map[string]*ReceiveChannel{},
	}
	for i := range libs {
		// Library by library, not role by role: where two libraries say different things of
		// one name (a type one calls a transaction and another a pool) the later one wins.
		for _, r := range roles {
			if r.compile != nil {
				r.compile(ix, &libs[i])
			}
		}
	}
	for _, ss := range ix.methodSinks {
		sort.Slice(ss, func(i, j int) bool { return ss[i].Func < ss[j].Func })
	}
	return ix
}

// entry returns the entry of the function or method name, adding an empty one.
func (ix *Index) entry(name string) *Entry {
	key := Normalize(name)
	e := ix.entries[key]
	if e == nil {
		e = &Entry{}
		ix.entries[key] = e
	}
	return e
}

// Lookup returns what the models say about fn (its generic origin); an empty entry when
// they say nothing. Callers cache it per function: it formats the full name.
func (ix *Index) Lookup(fn *types.Func) *Entry {
	if e := ix.entries[Normalize(fn.Origin().FullName())]; e != nil {
		if !e.Unstable && fn.Pkg() != nil && ix.unstablePkgs[Normalize(fn.Pkg().Path())] {
			copy := *e
			copy.Unstable = true
			return &copy
		}
		return e
	}
	if fn.Pkg() != nil && ix.unstablePkgs[Normalize(fn.Pkg().Path())] {
		return &Entry{Unstable: true}
	}
	if fn.Pkg() != nil && ix.NeutralPackage(fn.Pkg().Path()) {
		return neutral
	}
	if e := ix.lookupGenerated(fn); e != nil {
		return e
	}
	return none
}

// neutral is the entry of a function of a neutral package.
var neutral = &Entry{Neutral: true}

// NeutralPackage reports whether every function of the package is neutral: a telemetry
// package (TelemetryPackages) or one the models name pkg/path.* under neutral.
func (ix *Index) NeutralPackage(path string) bool {
	path = Normalize(path)
	for p := path; ; {
		if ix.neutralPkgs[p] || telemetry[p] {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// lookupGenerated matches fn against the generated-code models: a method whose name is a
// chain guard or has the shape of a relative setter, declared in a package that imports
// the model's package. It returns nil when none matches.
func (ix *Index) lookupGenerated(fn *types.Func) *Entry {
	if len(ix.generated) == 0 || fn.Pkg() == nil {
		return nil
	}
	sig := fn.Signature()
	if sig.Recv() == nil {
		return nil
	}
	for _, g := range ix.generated {
		guard := slices.Contains(g.ChainGuards, fn.Name())
		relative := !guard && relativeSetter(g, fn.Name(), sig)
		if (!guard && !relative) || !imports(fn.Pkg(), g.Imports) {
			continue
		}
		if guard {
			return &Entry{ChainGuard: true, GuardKind: g.Kind}
		}
		return &Entry{Sink: &Sink{Func: fn.FullName(), Kind: g.Kind, Shape: Relative, Arg: 0, What: g.What}}
	}
	return nil
}

// relativeSetter reports whether a method named name with signature sig is a relative
// setter of g: prefix+Field, one numeric parameter, and its receiver's type as its result
// (a builder returns itself for chaining; AddBalanceIDs(ids ...int) or a mutation's
// AddBalance(int) with no result do not match).
func relativeSetter(g *Generated, name string, sig *types.Signature) bool {
	if sig.Params().Len() != 1 || sig.Variadic() || sig.Results().Len() != 1 ||
		!types.Identical(sig.Results().At(0).Type(), sig.Recv().Type()) {
		return false
	}
	b, ok := sig.Params().At(0).Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsNumeric == 0 {
		return false
	}
	for _, p := range g.Relative {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z' {
			return true
		}
	}
	return false
}

// imports reports whether pkg imports the package with path (major versions loosely).
func imports(pkg *types.Package, path string) bool {
	path = Normalize(path)
	for _, imp := range pkg.Imports() {
		if Normalize(imp.Path()) == path {
			return true
		}
	}
	return false
}

// MethodSinks returns the sinks that are methods named name, sorted by full name, for
// resolving calls through interfaces that such a method implements.
func (ix *Index) MethodSinks(name string) []*Sink { return ix.methodSinks[name] }

// MethodGates returns the claims made by a condition (Gate.Params) that are methods named
// name, for a call through an application's interface that mirrors the client.
func (ix *Index) MethodGates(name string) []*Gate { return ix.methodGates[name] }

// KeyField reports whether the field named "pkg.Type.Field" carries an idempotency key.
func (ix *Index) KeyField(name string) bool { return ix.keyFields[Normalize(name)] }

// ConditionField returns the strings whose presence in the text of the field named
// "pkg.Type.Field" makes a write safe to repeat, or nil when it is no condition field.
func (ix *Index) ConditionField(name string) []string { return ix.conditions[Normalize(name)] }

// GuardType reports whether a literal of the named type "pkg/path.Type" in a builder chain
// makes the write an upsert.
func (ix *Index) GuardType(name string) bool { return ix.guardTypes[Normalize(name)] }

// SyncEvent reports whether the named type "pkg/path.Type" is an event a handler receives
// only from a caller that waits for its answer (sync_events).
func (ix *Index) SyncEvent(name string) bool { return ix.syncEvents[Normalize(name)] }

// TxMode says whether calls on the named type "pkg/path.Type" run in a transaction, on a
// pool outside any, or neither is known.
func (ix *Index) TxMode(name string) effect.TxMode { return ix.txModes[Normalize(name)] }

// Delivery returns the receive channel model whose element type is the named type name
// (pkg/path.Type), or nil: a receive from a channel of it is a delivery.
func (ix *Index) Delivery(name string) *ReceiveChannel { return ix.deliveries[Normalize(name)] }

// DedupPackage reports whether the package at path declares an in-memory deduplicating
// middleware: only a package importing one can install it.
func (ix *Index) DedupPackage(path string) bool { return ix.dedupPkgs[Normalize(path)] }

// Generated reports whether pkg is generated code a model describes: it imports the
// package a Generated model names.
func (ix *Index) Generated(pkg *types.Package) bool {
	for _, g := range ix.generated {
		if pkg != nil && imports(pkg, g.Imports) {
			return true
		}
	}
	return false
}

// ReadEndpoint reports whether an HTTP request to the URL text u (with holes where it is
// built at run time) reads: its path, without the query, ends with a read endpoint.
func (ix *Index) ReadEndpoint(u string) bool {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimSuffix(u, "/")
	for _, p := range ix.readPaths {
		if strings.HasSuffix(u, strings.TrimSuffix(p, "/")) {
			return true
		}
	}
	return false
}

// AppendOnly reports whether the table (as an SQL statement names it, possibly qualified
// by its schema) takes a new row on every run by design. A model naming "attempts" matches
// "attempts" and "jobs.attempts"; one naming "jobs.attempts" only the latter.
func (ix *Index) AppendOnly(table string) bool {
	t := strings.ToLower(strings.Map(func(r rune) rune {
		if r == '"' || r == '`' || r == '[' || r == ']' {
			return -1 // quotes of identifiers
		}
		return r
	}, table))
	if ix.appendOnly[t] {
		return true
	}
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		return ix.appendOnly[t[i+1:]]
	}
	return false
}

// ReplySubject reports whether the field named "pkg/path.Type.Field" gives the subject a
// received message asks its answer on (reply_subjects).
func (ix *Index) ReplySubject(field string) bool {
	e := ix.entries[Normalize(field)]
	return field != "" && e != nil && e.ReplySubject
}

// Handlers returns the handler shapes.
func (ix *Index) Handlers() []HandlerShape { return ix.handlers }

// Modelled reports whether a model names the package with this path.
func (ix *Index) Modelled(path string) bool { return ix.packages[Normalize(path)] }

// ModelledModule reports whether a model names a package of the module with this path.
func (ix *Index) ModelledModule(module string) bool {
	module = Normalize(module)
	for p := range ix.packages {
		if p == module || strings.HasPrefix(p, module+"/") {
			return true
		}
	}
	return false
}

// Standard reports whether path is a package of the standard library: no dot in its first
// element. A module may be named without a dot too ("orders", "booking_monitor"): where the
// analysed package is at hand, OfProgram tells its own packages from the standard library.
func Standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// OfProgram reports whether the package path is not the standard library's, as seen from
// the package whose path is own: a path with a dot in its first element, or with the same
// first element as own (a module named "orders" has packages "orders/queue").
func OfProgram(path, own string) bool {
	first, _, _ := strings.Cut(path, "/")
	mine, _, _ := strings.Cut(own, "/")
	return !Standard(path) || first == mine
}

// PackageOf returns the package path of a full name: "(*database/sql.DB).Exec" and
// "database/sql.Open" both give "database/sql". The last path element may hold dots
// ("github.com/nats-io/nats.go", "gopkg.in/yaml.v3"): a method's receiver names a type, so
// its package is everything before the receiver's last dot; a function or field is taken
// to live in the package before the first dot after which only identifiers follow, which is
// ambiguous only for dotted last elements, where the longest candidate that leaves one or two
// identifiers is chosen.
func PackageOf(name string) string {
	if strings.HasPrefix(name, "(") {
		recv := strings.TrimPrefix(strings.TrimPrefix(name, "("), "*")
		if i := strings.Index(recv, ")"); i >= 0 {
			recv = recv[:i]
		}
		if i := strings.Index(recv, "["); i >= 0 {
			recv = recv[:i]
		}
		if dot := strings.LastIndex(recv, "."); dot >= 0 {
			return recv[:dot]
		}
		return recv
	}
	slash := strings.LastIndex(name, "/")
	last := name[slash+1:]
	dot := strings.Index(last, ".")
	if dot < 0 {
		return name
	}
	// "nats.go.Connect" or "v82.Params.IdempotencyKey": the package name cannot end in a
	// capitalised element, and exported objects start with a capital letter.
	parts := strings.Split(last, ".")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" && (parts[i][0] >= 'A' && parts[i][0] <= 'Z' || parts[i] == "*") {
			return name[:slash+1] + strings.Join(parts[:i], ".")
		}
	}
	return name[:slash+1+dot]
}

// NamesOf returns every full name the libraries reference (functions, methods, types and
// fields), sorted, so a test can prove each exists in the real library.
func NamesOf(libs []Library) []string {
	seen := map[string]bool{}
	for i := range libs {
		for _, r := range roles {
			if r.names == nil {
				continue
			}
			for _, n := range r.names(&libs[i]) {
				if n != "" && !strings.HasSuffix(n, ".*") { // a whole package is no object
					seen[n] = true
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

package model

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"

	"github.com/chokaq/idemlint/internal/config"
	"github.com/chokaq/idemlint/internal/effect"
	"github.com/chokaq/idemlint/internal/yamlerr"
)

// File is the schema of a model file (the built-in ones and users' .idemlint.yml alike), as
// go-yaml decodes it; each key has its row in roles, which checks and converts it. Every
// field is documented in docs/models.md.
type File struct {
	Library       string            `yaml:"library"`
	Sinks         []SinkEntry       `yaml:"sinks"`
	Handlers      []HandlerEntry    `yaml:"handlers"`
	Registrations []RegistrationRow `yaml:"registrations"`
	Unstable      []string          `yaml:"unstable"`
	KeyFields     []string          `yaml:"key_fields"`
	KeySetters    []string          `yaml:"key_setters"`
	KeyOptions    []string          `yaml:"key_options"`
	ChainGuards   []string          `yaml:"chain_guards"`
	Records       []string          `yaml:"records"`
	GuardTypes    []string          `yaml:"guard_types"`
	HeaderSetters []string          `yaml:"header_setters"`
	Conditions    []ConditionEntry  `yaml:"condition_fields"`
	HandlerCalls  []string          `yaml:"handler_calls"`
	ReceiveCalls  []string          `yaml:"receive_calls"`
	// ReceiveChannels are calls whose result is a channel of deliveries (RabbitMQ Consume).
	ReceiveChannels []ReceiveChannelEntry `yaml:"receive_channels"`
	AckCalls        []string              `yaml:"ack_calls"`
	SQLExprs        []string              `yaml:"sql_exprs"`
	TxCompletions   []string              `yaml:"tx_completions"`
	TxnOffsets      []string              `yaml:"txn_offsets"`
	TxTypes         []string              `yaml:"tx_types"`
	PoolTypes       []string              `yaml:"pool_types"`
	// InProcessDedup lists deduplicating middleware that remembers messages in memory only.
	InProcessDedup []DedupRow       `yaml:"in_process_dedup"`
	Gates          []GateEntry      `yaml:"gates"`
	Generated      []GeneratedEntry `yaml:"generated"`
	OpaqueCalls    []string         `yaml:"opaque_calls"`
	Reads          []string         `yaml:"reads"`
	Neutral        []string         `yaml:"neutral"`
	ReadEndpoints  []string         `yaml:"read_endpoints"`
	ReplySubjects  []string         `yaml:"reply_subjects"`
	AppendOnly     []string         `yaml:"append_only"`
	SyncEvents     []string         `yaml:"sync_events"`
	// MessageIterators are methods that call the callback they are given with each message
	// of their receiver, a received batch (franz-go Fetches.EachRecord).
	MessageIterators []string `yaml:"message_iterators"`
	// Steps are calls that run their function arguments as recovery points (the runtime's
	// idempotency.Step): what those functions reach is the job's progress, recorded per step.
	Steps []string `yaml:"steps"`
	// TxSteps are Steps that record the result in the transaction they are given.
	TxSteps []string `yaml:"tx_steps"`
	// ReviewCalls are calls whose result, returned by a handler, asks for manual review of a
	// job after a partial side effect (the runtime's idempotency.NeedsReview).
	ReviewCalls []string `yaml:"review_calls"`
}

// DedupRow models a deduplicating middleware (the function or method value handed to the
// router) and names it for messages.
type DedupRow struct {
	Func string `yaml:"func"`
	What string `yaml:"what"`
}

// GateEntry models a call that claims a job before its effects (Redis SETNX), or several
// that share everything but the name (Funcs).
type GateEntry struct {
	Func    string   `yaml:"func"`
	Funcs   []string `yaml:"funcs"`
	KeyArgs []int    `yaml:"key_args"`
	// ParamsArg names the params argument of a claim made by a condition field instead of
	// by key arguments (see Gate.Params).
	ParamsArg *int `yaml:"params_arg"`
	// DuplicateField and TxArg: see Gate.
	DuplicateField string `yaml:"duplicate_field"`
	TxArg          *int   `yaml:"tx_arg"`
	What           string `yaml:"what"`
}

// GeneratedEntry models code the library generates into each project (see Generated).
type GeneratedEntry struct {
	Imports     string   `yaml:"imports"`
	Kind        string   `yaml:"kind"`
	ChainGuards []string `yaml:"chain_guards"`
	Relative    []string `yaml:"relative"`
	What        string   `yaml:"what"`
}

// SinkEntry models one sink, or several that share everything but the name (Funcs).
type SinkEntry struct {
	Func  string   `yaml:"func"`
	Funcs []string `yaml:"funcs"`
	Kind  string   `yaml:"kind"`
	Shape string   `yaml:"shape"`
	Arg   *int     `yaml:"arg"`
	What  string   `yaml:"what"`
	TxArg *int     `yaml:"tx_arg"`
	Field string   `yaml:"field"`
	// URLArg is the index of the URL argument of an HTTP sink: a POST to a read endpoint
	// (read_endpoints) is not an effect.
	URLArg *int `yaml:"url_arg"`
	// ConsumerKey: the key field names the message for its consumers to deduplicate; the
	// broker itself does not (a RabbitMQ MessageId).
	ConsumerKey bool `yaml:"consumer_key"`
	// Receiver: the params are the call's receiver, not an argument (Elasticsearch's
	// esapi.IndexRequest{...}.Do(ctx, es)); for shape provider.params, in place of arg. For
	// shape name.arg the receiver is what names the object (GCS's bucket.Object(name)).
	Receiver bool `yaml:"receiver"`
	// Unkeyed is what a finding says of the call made with no key at all, when the
	// library's words say it better than "without an idempotency key" ("with no document id
	// (the index makes a new document each time)").
	Unkeyed string `yaml:"unkeyed"`
	// TopicArg is the index of the argument naming where a publish goes (a topic, subject
	// or task type), or of the message made by the library's constructor whose first
	// argument names it (asynq.NewTask(type, ...)): a publish is judged by the program's own
	// consumers of that topic.
	TopicArg *int `yaml:"topic_arg"`
	// TopicType: the topic is the named type of the value topic_arg names (a River job's
	// args type, which its Kind() names), not a constant; with TopicField, topic_arg is a
	// batch of structs whose field of that name holds the value (InsertManyParams.Args).
	TopicType  bool   `yaml:"topic_type"`
	TopicField string `yaml:"topic_field"`
}

// ReceiveChannelEntry models calls that return a channel of deliveries (RabbitMQ's
// Consume): a receive from such a channel starts a handler.
type ReceiveChannelEntry struct {
	Func  string   `yaml:"func"`
	Funcs []string `yaml:"funcs"`
	// Element is the channel's element type, pkg/path.Type: a receive from any channel of it
	// (a parameter, a field, a channel the deliveries are forwarded on) is a delivery.
	Element string `yaml:"element"`
	// AutoAckArg is the index of the call's auto-acknowledge argument: a channel consumed
	// with a constant true there is at most once, and its receives are no handlers.
	AutoAckArg *int `yaml:"auto_ack_arg"`
}

// ConditionEntry models a params field that guards a write by its text.
type ConditionEntry struct {
	Field    string   `yaml:"field"`
	Contains []string `yaml:"contains"`
}

// HandlerEntry models a handler signature; types are written "context.Context",
// "*github.com/hibiken/asynq.Task", "[]*pkg.Message", "error".
type HandlerEntry struct {
	Framework string   `yaml:"framework"`
	Method    string   `yaml:"method"`
	Params    []string `yaml:"params"`
	Results   []string `yaml:"results"`
	// TopicParam is the index of the parameter whose type argument names what the handler
	// consumes (River's *river.Job[T]: the jobs of args type T), matched with the program's
	// publishes of that type (a sink's topic_type).
	TopicParam *int `yaml:"topic_param"`
}

// RegistrationRow models a call that hands a handler to a framework.
type RegistrationRow struct {
	Func      string `yaml:"func"`
	Arg       int    `yaml:"arg"`
	Framework string `yaml:"framework"`
	Methods   string `yaml:"methods"` // "exported": a struct value registers its exported methods
	// TopicArg is the index of the argument naming what the handler consumes (a topic,
	// subject or task type), matched with the program's publishes to it.
	TopicArg *int `yaml:"topic_arg"`
}

// Error is a problem in a model file, with its place.
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

// LoadFile reads and checks a model file.
func LoadFile(name string) (Library, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return Library{}, err
	}
	return Parse(name, data)
}

// Parse reads and checks the model file data, named name in errors. An unknown key is an
// error, not ignored: a misspelt field would otherwise silently model nothing.
func Parse(name string, data []byte) (Library, error) {
	doc, err := parser.ParseBytes(data, 0)
	if err != nil {
		return Library{}, yamlError(name, err)
	}
	var f File
	if err := decode(data, &f); err != nil {
		return Library{}, withKnownKeys(yamlError(name, err))
	}
	if config.SettingsOnly(doc) { // a .idemlint.yml with settings and no models
		return Library{Source: name}, nil
	}
	lib, problems := f.library()
	if len(problems) > 0 {
		var errs []error
		for _, p := range problems {
			line, col := position(doc, p.path)
			errs = append(errs, &Error{File: name, Line: line, Column: col, Msg: p.msg})
		}
		return Library{}, errors.Join(errs...)
	}
	lib.Source = name
	return lib, nil
}

// decode reads data into f strictly. go-yaml v1.19.2 panics on some malformed input (a tag
// with no value in a sequence: "funcs: !00", found by FuzzParse); a model file is user input,
// so that is an error here, not a crash of the linter's host.
func decode(data []byte, f *File) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the YAML decoder failed on this file (%v): check its tags and structure", r)
		}
	}()
	// The settings keys (disable, enable, ...) are read by internal/config; they are
	// accepted here, and their types checked with the rest of the file.
	var doc struct {
		File            `yaml:",inline"`
		config.Settings `yaml:",inline"`
	}
	err = yaml.UnmarshalWithOptions(data, &doc, yaml.DisallowUnknownField(), yaml.Strict())
	*f = doc.File
	return err
}

// yamlError turns a go-yaml error into an Error with the file's name and the place.
func yamlError(name string, err error) error {
	var tokened interface {
		GetToken() *token.Token
		GetMessage() string
	}
	if errors.As(err, &tokened) && tokened.GetToken() != nil {
		pos := tokened.GetToken().Position
		msg := tokened.GetMessage()
		var syntax *yaml.SyntaxError
		if m, ok := yamlerr.TypeMessage(err); ok { // in YAML's terms, not Go's
			msg = m
		} else if errors.As(err, &syntax) {
			msg = yamlerr.SyntaxMessage(msg)
		}
		return &Error{File: name, Line: pos.Line, Column: pos.Column, Msg: msg}
	}
	return &Error{File: name, Msg: err.Error()}
}

// position finds the line and column of a YAML path in the parsed file (0, 0 if absent).
func position(doc *ast.File, path string) (int, int) {
	for path != "" {
		p, err := yaml.PathString(path)
		if err == nil {
			if n, err := p.FilterFile(doc); err == nil && n != nil && n.GetToken() != nil {
				pos := n.GetToken().Position
				return pos.Line, pos.Column
			}
		}
		// Fall back to the enclosing element, e.g. a missing field's entry.
		i := strings.LastIndexAny(path, ".[")
		if i <= 1 {
			break
		}
		path = path[:i]
	}
	return 0, 0
}

// library checks the decoded file and converts it, one role at a time (roles.go).
func (f *File) library() (Library, []problem) {
	var lib Library
	var c checker
	for _, r := range roles {
		r.load(f, &lib, &c)
	}
	return lib, c.probs
}

// shortName drops the directories of a full name's package path, for messages:
// "(*a/b/middleware.Dedup).Middleware" becomes "(*middleware.Dedup).Middleware".
func shortName(full string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(full, "("), "*")
	prefix := full[:len(full)-len(rest)]
	return prefix + rest[strings.LastIndex(rest, "/")+1:]
}

// fieldProblem returns the problem with n as the name of a field, called noun in the
// message ("key field"), or "" when it has the form pkg/path.Type.Field.
func fieldProblem(noun, n string) string {
	// The last path element may hold dots itself (github.com/nats-io/nats.go.Msg.Reply):
	// a field name ends in .Type.Field after a package name.
	parts := strings.Split(n[strings.LastIndex(n, "/")+1:], ".")
	if len(parts) >= 3 && !slices.Contains(parts, "") && !strings.ContainsAny(n, " ()*") {
		return ""
	}
	return fmt.Sprintf("a %s is written pkg/path.Type.Field, got %q", noun, n)
}

// funcNames returns the names of an entry written with func, funcs or both (func first),
// reporting a missing or malformed name at its place under the entry at.
func funcNames(at, entry, fn string, fns []string, c *checker) []string {
	names := fns
	if fn != "" {
		names = append([]string{fn}, names...)
	}
	if len(names) == 0 {
		c.bad(at, "%s: field func (or funcs) is required: the full name of a function or method", entry)
	}
	for j, n := range names {
		if msg := checkFuncName(n); msg != "" {
			path := at + ".func"
			if fn == "" || j > 0 {
				path = fmt.Sprintf("%s.funcs[%d]", at, j-boolInt(fn != ""))
			}
			c.bad(path, "%s", msg)
		}
	}
	return names
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func needsArg(s Shape) bool {
	switch s {
	case SQLExec, SQLQuery, SQLBatch, HTTPDo, HTTPForm, ProviderParams, KeyArg, UpdateExpression, UpdateValues:
		return true
	}
	return false
}

func defaultWhat(k effect.Kind) string {
	switch k {
	case effect.EmailSend:
		return "email"
	case effect.Payment:
		return "payment"
	case effect.HTTPWrite:
		return "HTTP request"
	}
	return string(k)
}

// checkFuncName checks the form of a full name: "pkg/path.Func", "(*pkg/path.T).M" or
// "(pkg/path.T).M".
func checkFuncName(n string) string {
	if n == "" {
		return "a function name is required"
	}
	if strings.HasPrefix(n, "(") {
		close := strings.Index(n, ")")
		if close < 0 || !strings.HasPrefix(n[close:], ").") || len(n) == close+2 || !strings.Contains(n[:close], ".") {
			return fmt.Sprintf("a method is written (*pkg/path.Type).Method or (pkg/path.Type).Method, got %q", n)
		}
		return ""
	}
	slash := strings.LastIndex(n, "/")
	if !strings.Contains(n[slash+1:], ".") || strings.HasSuffix(n, ".") {
		return fmt.Sprintf("a function is written pkg/path.Func, got %q", n)
	}
	return ""
}

// parseTypeRef reads "[]*pkg/path.Name", "*pkg/path.Name", "pkg/path.Name" or a predeclared
// type name.
func parseTypeRef(s string) (TypeRef, string) {
	var ref TypeRef
	rest := s
	if r, ok := strings.CutPrefix(rest, "[]"); ok {
		ref.Slice, rest = true, r
	}
	if r, ok := strings.CutPrefix(rest, "*"); ok {
		ref.Ptr, rest = true, r
	}
	dot := strings.LastIndex(rest, ".")
	if dot < 0 {
		if rest == "" {
			return ref, fmt.Sprintf("a type is written [*]pkg/path.Name or a predeclared name, got %q", s)
		}
		ref.Name = rest
		return ref, ""
	}
	ref.Path, ref.Name = rest[:dot], rest[dot+1:]
	if ref.Path == "" || ref.Name == "" {
		return ref, fmt.Sprintf("a type is written [*]pkg/path.Name, got %q", s)
	}
	return ref, ""
}

func shapeList() string {
	var s []string
	for n := range shapeNames {
		s = append(s, n)
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}

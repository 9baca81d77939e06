package model

import (
	"fmt"
	gotoken "go/token"
	"slices"
	"strings"

	"github.com/chokaq/idemlint/internal/effect"
)

// A role is one top-level key of a model file and all the package does with it: load checks
// the decoded entries and stores them in a Library, compile adds a Library's entries to an
// Index (what the role means to the analyzer), and names lists the full names they reference
// (NamesOf, which -models-check and the real-API check resolve).
//
// roles is the one list of them. File stays the schema go-yaml decodes into, because its
// strict decoding gives the unknown-field and type errors with their places (and names File's
// fields in them); Library is the API the checks read. A test keeps File's keys and the rows
// in step, so a new key cannot be decoded and then silently dropped.
type role struct {
	key     string
	load    func(f *File, lib *Library, c *checker)
	compile func(ix *Index, lib *Library) // nil: the role adds nothing to the Index
	names   func(lib *Library) []string   // nil: the role references no full names
}

// roles, in the order a file's problems are reported: moving a row reorders the messages of
// a file with several problems.
var roles = []role{
	{key: "library", load: loadLibraryName},
	{key: "sinks", load: loadSinks, compile: compileSinks, names: sinkNames},
	{key: "gates", load: loadGates, compile: compileGates, names: gateNames},
	{key: "handlers", load: loadHandlers, compile: compileHandlers, names: handlerNames},
	{key: "registrations", load: loadRegistrations, compile: compileRegistrations, names: registrationNames},
	{key: "in_process_dedup", load: loadDedup, compile: compileDedup, names: dedupNames},
	nameList("unstable", funcOrPackage,
		func(f *File) []string { return f.Unstable }, func(l *Library) *[]string { return &l.Unstable },
		func(ix *Index, _ *Library, n string) {
			if p, ok := strings.CutSuffix(n, ".*"); ok {
				ix.unstablePkgs[Normalize(p)] = true
			} else {
				ix.entry(n).Unstable = true
			}
		}),
	nameList("key_setters", funcName,
		func(f *File) []string { return f.KeySetters }, func(l *Library) *[]string { return &l.KeySetters },
		func(ix *Index, _ *Library, n string) { ix.entry(n).KeySetter = true }),
	nameList("key_options", funcName,
		func(f *File) []string { return f.KeyOptions }, func(l *Library) *[]string { return &l.KeyOptions },
		func(ix *Index, _ *Library, n string) { ix.entry(n).KeyOption = true }),
	nameList("chain_guards", funcName,
		func(f *File) []string { return f.ChainGuards }, func(l *Library) *[]string { return &l.ChainGuards },
		func(ix *Index, _ *Library, n string) { ix.entry(n).ChainGuard = true }),
	nameList("records", funcName,
		func(f *File) []string { return f.Records }, func(l *Library) *[]string { return &l.Records },
		func(ix *Index, _ *Library, n string) { ix.entry(n).Record = true }),
	nameList("header_setters", funcName,
		func(f *File) []string { return f.HeaderSetters }, func(l *Library) *[]string { return &l.HeaderSetters },
		func(ix *Index, _ *Library, n string) { ix.entry(n).HeaderSetter = true }),
	nameList("handler_calls", funcName,
		func(f *File) []string { return f.HandlerCalls }, func(l *Library) *[]string { return &l.HandlerCalls },
		func(ix *Index, lib *Library, n string) {
			// Its package counts as modelled: a package that imports only it (a helper
			// that checks a webhook) is analysed.
			ix.entry(n).HandlerCall = lib.Name
			ix.packages[Normalize(PackageOf(n))] = true
		}),
	nameList("receive_calls", funcName,
		func(f *File) []string { return f.ReceiveCalls }, func(l *Library) *[]string { return &l.ReceiveCalls },
		func(ix *Index, lib *Library, n string) {
			ix.entry(n).Receive = lib.Name
			ix.packages[Normalize(PackageOf(n))] = true
		}),
	{key: "receive_channels", load: loadReceiveChannels, compile: compileReceiveChannels, names: receiveChannelNames},
	nameList("ack_calls", funcName,
		func(f *File) []string { return f.AckCalls }, func(l *Library) *[]string { return &l.AckCalls },
		func(ix *Index, _ *Library, n string) { ix.entry(n).Ack = true }),
	nameList("sql_exprs", funcName,
		func(f *File) []string { return f.SQLExprs }, func(l *Library) *[]string { return &l.SQLExprs },
		func(ix *Index, _ *Library, n string) { ix.entry(n).SQLExpr = true }),
	nameList("tx_completions", funcName,
		func(f *File) []string { return f.TxCompletions }, func(l *Library) *[]string { return &l.TxCompletions },
		func(ix *Index, _ *Library, n string) { ix.entry(n).TxCompletion = true }),
	nameList("txn_offsets", funcName,
		func(f *File) []string { return f.TxnOffsets }, func(l *Library) *[]string { return &l.TxnOffsets },
		func(ix *Index, _ *Library, n string) { ix.entry(n).TxnOffset = true }),
	nameList("opaque_calls", funcName,
		func(f *File) []string { return f.OpaqueCalls }, func(l *Library) *[]string { return &l.OpaqueCalls },
		func(ix *Index, _ *Library, n string) { ix.entry(n).Opaque = true }),
	nameList("key_fields", fieldName,
		func(f *File) []string { return f.KeyFields }, func(l *Library) *[]string { return &l.KeyFields },
		func(ix *Index, _ *Library, n string) { ix.keyFields[Normalize(n)] = true }),
	{key: "condition_fields", load: loadConditions, compile: compileConditions, names: conditionNames},
	nameList("guard_types", typeName,
		func(f *File) []string { return f.GuardTypes }, func(l *Library) *[]string { return &l.GuardTypes },
		func(ix *Index, _ *Library, n string) { ix.guardTypes[Normalize(n)] = true }),
	nameList("sync_events", typeName,
		func(f *File) []string { return f.SyncEvents }, func(l *Library) *[]string { return &l.SyncEvents },
		func(ix *Index, _ *Library, n string) { ix.syncEvents[Normalize(n)] = true }),
	// tx_types before pool_types: a type in both is a pool (Compile's order within a library).
	nameList("tx_types", typeName,
		func(f *File) []string { return f.TxTypes }, func(l *Library) *[]string { return &l.TxTypes },
		func(ix *Index, _ *Library, n string) { ix.txModes[Normalize(n)] = effect.TxIn }),
	nameList("pool_types", typeName,
		func(f *File) []string { return f.PoolTypes }, func(l *Library) *[]string { return &l.PoolTypes },
		func(ix *Index, _ *Library, n string) { ix.txModes[Normalize(n)] = effect.TxOutside }),
	{key: "generated", load: loadGenerated, compile: compileGenerated},
	nameList("reads", funcName,
		func(f *File) []string { return f.Reads }, func(l *Library) *[]string { return &l.Reads },
		func(ix *Index, _ *Library, n string) { ix.entry(n).Read = true }),
	nameList("neutral", funcOrPackage,
		func(f *File) []string { return f.Neutral }, func(l *Library) *[]string { return &l.Neutral },
		func(ix *Index, _ *Library, n string) {
			// Not counted as modelled: a package that imports only a logger is not analysed.
			if p, ok := strings.CutSuffix(n, ".*"); ok {
				ix.neutralPkgs[Normalize(p)] = true
			} else {
				ix.entry(n).Neutral = true
			}
		}),
	textList("read_endpoints", endpointProblem,
		func(f *File) []string { return f.ReadEndpoints }, func(l *Library) *[]string { return &l.ReadEndpoints },
		func(ix *Index, n string) { ix.readPaths = append(ix.readPaths, n) }),
	nameList("reply_subjects", funcOrField,
		func(f *File) []string { return f.ReplySubjects }, func(l *Library) *[]string { return &l.ReplySubjects },
		func(ix *Index, _ *Library, n string) { ix.entry(n).ReplySubject = true }),
	textList("append_only", tableProblem,
		func(f *File) []string { return f.AppendOnly }, func(l *Library) *[]string { return &l.AppendOnly },
		func(ix *Index, n string) { ix.appendOnly[strings.ToLower(n)] = true }),
	nameList("message_iterators", funcName,
		func(f *File) []string { return f.MessageIterators }, func(l *Library) *[]string { return &l.MessageIterators },
		func(ix *Index, _ *Library, n string) { ix.entry(n).Iterator = true }),
	nameList("steps", funcName,
		func(f *File) []string { return f.Steps }, func(l *Library) *[]string { return &l.Steps },
		func(ix *Index, _ *Library, n string) { ix.entry(n).Step = true }),
	nameList("tx_steps", funcName,
		func(f *File) []string { return f.TxSteps }, func(l *Library) *[]string { return &l.TxSteps },
		func(ix *Index, _ *Library, n string) { ix.entry(n).TxStep = true }),
	nameList("review_calls", funcName,
		func(f *File) []string { return f.ReviewCalls }, func(l *Library) *[]string { return &l.ReviewCalls },
		func(ix *Index, _ *Library, n string) { ix.entry(n).Review = true }),
}

// nameKind is the kind of name a list role holds; it decides how each name is checked.
type nameKind uint8

const (
	funcName      nameKind = iota + 1 // pkg/path.Func, (*pkg/path.Type).Method, (pkg/path.Type).Method
	funcOrPackage                     // a funcName, or pkg/path.* for every function of a package
	fieldName                         // pkg/path.Type.Field
	typeName                          // pkg/path.Type
	funcOrField                       // a funcName, or a fieldName
)

// check returns the problem with the name n in the list under key, or "".
func (k nameKind) check(key, n string) string {
	switch k {
	case funcOrPackage:
		if strings.HasSuffix(n, ".*") {
			return ""
		}
		return checkFuncName(n)
	case funcName:
		return checkFuncName(n)
	case funcOrField:
		if strings.HasPrefix(n, "(") {
			return checkFuncName(n)
		}
		return fieldProblem("field", n)
	case fieldName:
		// The list's key in the singular names the field: "a key field is written ...".
		return fieldProblem(strings.ReplaceAll(strings.TrimSuffix(key, "s"), "_", " "), n)
	case typeName:
		if ref, msg := parseTypeRef(n); msg != "" || ref.Path == "" || ref.Ptr || ref.Slice {
			return fmt.Sprintf("a type is written pkg/path.Type, got %q", n)
		}
	}
	return ""
}

// nameList is the role of a plain list of names of one kind, the most common role: the
// list is stored in Library as decoded (from and to give the fields of File and Library), and
// fill, the role's meaning, adds one name of a library to the Index.
func nameList(key string, kind nameKind, from func(*File) []string, to func(*Library) *[]string,
	fill func(ix *Index, lib *Library, name string)) role {
	return role{
		key: key,
		load: func(f *File, lib *Library, c *checker) {
			names := from(f)
			for i, n := range names {
				if msg := kind.check(key, n); msg != "" {
					c.bad(fmt.Sprintf("$.%s[%d]", key, i), "%s", msg)
				}
			}
			*to(lib) = names
		},
		compile: func(ix *Index, lib *Library) {
			for _, n := range *to(lib) {
				fill(ix, lib, n)
			}
		},
		names: func(lib *Library) []string { return *to(lib) },
	}
}

// textList is the role of a list of strings that are not Go names (URL paths, table
// names): each is checked by problem, and none is a name NamesOf resolves.
func textList(key string, problem func(string) string, from func(*File) []string, to func(*Library) *[]string,
	fill func(ix *Index, s string)) role {
	return role{
		key: key,
		load: func(f *File, lib *Library, c *checker) {
			for i, s := range from(f) {
				if msg := problem(s); msg != "" {
					c.bad(fmt.Sprintf("$.%s[%d]", key, i), "%s", msg)
				}
			}
			*to(lib) = from(f)
		},
		compile: func(ix *Index, lib *Library) {
			for _, s := range *to(lib) {
				fill(ix, s)
			}
		},
	}
}

// endpointProblem checks a read endpoint: a URL path, "/" and more, or a custom method,
// ":" and more (Google APIs' models/{model}:generateContent), without a query.
func endpointProblem(p string) string {
	if len(p) < 2 || (p[0] != '/' && p[0] != ':') || strings.ContainsAny(p, "?# \t\n") {
		return fmt.Sprintf("a read endpoint is a URL path such as \"/oauth/token\", or a custom method such as \":generateContent\" (no query), got %q", p)
	}
	return ""
}

// tableProblem checks an append-only table name: an SQL name, optionally schema-qualified.
func tableProblem(t string) string {
	for _, part := range strings.Split(t, ".") {
		if part == "" || strings.IndexFunc(part, func(r rune) bool {
			return !(r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r >= 0x80)
		}) >= 0 {
			return fmt.Sprintf("an append-only table is written table or schema.table, got %q", t)
		}
	}
	return ""
}

// checker collects a file's problems, each with the YAML path of the value it is about
// (Parse turns the path into a line and column).
type checker struct{ probs []problem }

type problem struct{ path, msg string }

func (c *checker) bad(path, format string, args ...any) {
	c.probs = append(c.probs, problem{path, fmt.Sprintf(format, args...)})
}

// argIndex reports an argument index v below 0 in the field named field, at path.
func (c *checker) argIndex(path, field string, v int) {
	if v < 0 {
		c.bad(path, "field %s: an argument index counts from 0, got %d", field, v)
	}
}

func loadLibraryName(f *File, lib *Library, c *checker) {
	lib.Name = f.Library
	if f.Library == "" {
		c.bad("$", "field library: a name for the library is required")
	}
}

// loadSinks stores one Sink per name of each entry (func, then funcs).
func loadSinks(f *File, lib *Library, c *checker) {
	for i, s := range f.Sinks {
		at := fmt.Sprintf("$.sinks[%d]", i)
		names := funcNames(at, "sink", s.Func, s.Funcs, c)
		sink := checkSink(at, s, c)
		sink.Library = f.Library
		for _, n := range names {
			sink.Func = n
			lib.Sinks = append(lib.Sinks, sink)
		}
	}
}

// checkSink checks one sinks entry but its names and returns the Sink it models, without Func.
func checkSink(at string, s SinkEntry, c *checker) Sink {
	kind := effect.Kind(s.Kind)
	if !effect.Known(kind) {
		c.bad(at+".kind", "field kind: unknown effect kind %q (known: %s)", s.Kind, effect.KindList())
	}
	shape, ok := shapeNames[s.Shape]
	if !ok {
		c.bad(at+".shape", "field shape: unknown shape %q (known: %s)", s.Shape, shapeList())
	}
	arg := -1
	switch {
	case s.Receiver && shape != ProviderParams && shape != NameArg:
		c.bad(at+".receiver", "field receiver: only shapes provider.params (its params) and name.arg (the object it writes) read the receiver")
	case s.Receiver && s.Arg != nil:
		c.bad(at+".arg", "field arg: a sink with receiver: true reads the receiver, not an argument")
	case s.Receiver:
	case s.Arg != nil:
		arg = *s.Arg
		c.argIndex(at+".arg", "arg", arg)
	case needsArg(shape):
		c.bad(at, "sink: field arg is required for shape %s: the index of the statement, request or params argument", s.Shape)
	}
	switch {
	case shape == UpdateExpression && s.Field == "":
		c.bad(at, "sink: field field is required for shape update.expression: the params field holding the expression, pkg/path.Type.Field")
	case shape == UpdateExpression, shape == NameArg && s.Field != "":
		if msg := fieldProblem("field", s.Field); msg != "" {
			c.bad(at+".field", "field field: %s", msg)
		}
	case s.Field != "":
		c.bad(at+".field", "field field: only shapes update.expression (the expression) and name.arg (the object's name) read a field")
	}
	what := s.What
	if what == "" {
		what = defaultWhat(kind)
	}
	if s.TxArg != nil {
		c.argIndex(at+".tx_arg", "tx_arg", *s.TxArg)
	}
	urlArg := -1
	if s.URLArg != nil {
		urlArg = *s.URLArg
		c.argIndex(at+".url_arg", "url_arg", urlArg)
		if shape != HTTPPost && shape != HTTPForm && shape != Builder {
			c.bad(at+".url_arg", "field url_arg: only shapes http.post, http.form and builder take a URL argument (http.do reads it where the request is built)")
		}
	}
	topic := 0
	if s.TopicArg != nil {
		topic = *s.TopicArg + 1
		c.argIndex(at+".topic_arg", "topic_arg", *s.TopicArg)
		if kind != effect.Publish {
			c.bad(at+".topic_arg", "field topic_arg: only a sink of kind publish names a topic")
		}
	}
	if s.TopicType && topic == 0 {
		c.bad(at+".topic_type", "field topic_type: topic_arg is required, the argument whose type names the topic")
	}
	if s.TopicField != "" && !s.TopicType {
		c.bad(at+".topic_field", "field topic_field: only a topic_type sink reads the topic from a field of a batch's elements")
	}
	return Sink{Kind: kind, Shape: shape, Arg: arg, What: what, InTx: s.TxArg != nil && *s.TxArg >= 0, Field: s.Field, URLArg: urlArg,
		ConsumerKey: s.ConsumerKey, Receiver: s.Receiver, Unkeyed: s.Unkeyed, Topic: topic, TopicType: s.TopicType, TopicField: s.TopicField}
}

// compileSinks also indexes method sinks by method name, for calls through interfaces.
func compileSinks(ix *Index, lib *Library) {
	for i := range lib.Sinks {
		s := &lib.Sinks[i]
		ix.entry(s.Func).Sink = s
		if strings.HasPrefix(s.Func, "(") {
			name := s.Func[strings.LastIndex(s.Func, ".")+1:]
			ix.methodSinks[name] = append(ix.methodSinks[name], s)
		}
		ix.packages[Normalize(PackageOf(s.Func))] = true
	}
}

func sinkNames(lib *Library) []string {
	var names []string
	for _, s := range lib.Sinks {
		names = append(names, s.Func, s.Field)
	}
	return names
}

// loadReceiveChannels stores one ReceiveChannel per name of each entry.
func loadReceiveChannels(f *File, lib *Library, c *checker) {
	for i, r := range f.ReceiveChannels {
		at := fmt.Sprintf("$.receive_channels[%d]", i)
		names := funcNames(at, "receive channel", r.Func, r.Funcs, c)
		if ref, msg := parseTypeRef(r.Element); msg != "" || ref.Path == "" || ref.Ptr || ref.Slice {
			c.bad(at+".element", "field element: a type is written pkg/path.Type, got %q", r.Element)
		}
		autoAck := -1
		if r.AutoAckArg != nil {
			autoAck = *r.AutoAckArg
			c.argIndex(at+".auto_ack_arg", "auto_ack_arg", autoAck)
		}
		for _, n := range names {
			lib.ReceiveChannels = append(lib.ReceiveChannels, ReceiveChannel{Func: n, Framework: lib.Name, Element: r.Element, AutoAckArg: autoAck})
		}
	}
}

func compileReceiveChannels(ix *Index, lib *Library) {
	for i := range lib.ReceiveChannels {
		r := &lib.ReceiveChannels[i]
		ix.entry(r.Func).ReceiveChannel = r
		ix.deliveries[Normalize(r.Element)] = r
		ix.packages[Normalize(PackageOf(r.Func))] = true
	}
}

func receiveChannelNames(lib *Library) []string {
	var names []string
	for _, r := range lib.ReceiveChannels {
		names = append(names, r.Func, r.Element)
	}
	return names
}

// loadGates stores one Gate per name of each entry; a gate's default words are its name.
func loadGates(f *File, lib *Library, c *checker) {
	for i, g := range f.Gates {
		at := fmt.Sprintf("$.gates[%d]", i)
		names := funcNames(at, "gate", g.Func, g.Funcs, c)
		params := 0
		switch {
		case g.ParamsArg != nil && len(g.KeyArgs) > 0:
			c.bad(at, "gate: fields key_args and params_arg exclude each other: a claim is named by its key arguments or by the condition its params carry")
		case g.ParamsArg != nil:
			c.argIndex(at+".params_arg", "params_arg", *g.ParamsArg)
			params = *g.ParamsArg + 1
		case len(g.KeyArgs) == 0:
			c.bad(at, "gate: field key_args is required: the indexes of the arguments that name the claim (or params_arg, for a claim made by a condition field)")
		}
		for j, k := range g.KeyArgs {
			c.argIndex(fmt.Sprintf("%s.key_args[%d]", at, j), "key_args", k)
		}
		if g.DuplicateField != "" && !gotoken.IsIdentifier(g.DuplicateField) {
			c.bad(at+".duplicate_field", "gate: field duplicate_field must be the name of a bool field of the call's first result (UniqueSkippedAsDuplicate)")
		}
		txArg := 0
		if g.TxArg != nil {
			c.argIndex(at+".tx_arg", "tx_arg", *g.TxArg)
			txArg = *g.TxArg + 1
		}
		for _, n := range names {
			what := g.What
			if what == "" {
				what = n[strings.LastIndex(n, ".")+1:] // the function's own name: "SetNX"
			}
			lib.Gates = append(lib.Gates, Gate{Func: n, KeyArgs: g.KeyArgs, Params: params, DuplicateField: g.DuplicateField, TxArg: txArg, What: what})
		}
	}
}

func compileGates(ix *Index, lib *Library) {
	for i := range lib.Gates {
		g := &lib.Gates[i]
		ix.entry(g.Func).Gate = g
		ix.packages[Normalize(PackageOf(g.Func))] = true
		if g.Params != 0 && strings.HasPrefix(g.Func, "(") {
			name := g.Func[strings.LastIndex(g.Func, ".")+1:]
			ix.methodGates[name] = append(ix.methodGates[name], g)
		}
	}
}

func gateNames(lib *Library) []string {
	return namesOf(lib.Gates, func(g Gate) string { return g.Func })
}

func loadHandlers(f *File, lib *Library, c *checker) {
	for i, h := range f.Handlers {
		at := fmt.Sprintf("$.handlers[%d]", i)
		if h.Framework == "" {
			c.bad(at, "handler: field framework is required")
		}
		params := typeRefs(at+".params", h.Params, c)
		results := typeRefs(at+".results", h.Results, c)
		topic := 0
		if h.TopicParam != nil {
			if *h.TopicParam < 0 || *h.TopicParam >= len(params) {
				c.bad(at+".topic_param", "field topic_param: %d is not the index of one of the %d params", *h.TopicParam, len(params))
			} else {
				topic = *h.TopicParam + 1
			}
		}
		lib.Handlers = append(lib.Handlers, HandlerShape{Framework: h.Framework, Method: h.Method, Params: params, Results: results, TopicParam: topic, Library: f.Library})
	}
}

// typeRefs reads the types of a handler's params or results, the list at path.
func typeRefs(path string, list []string, c *checker) []TypeRef {
	var refs []TypeRef
	for j, t := range list {
		ref, msg := parseTypeRef(t)
		if msg != "" {
			c.bad(fmt.Sprintf("%s[%d]", path, j), "%s", msg)
		}
		refs = append(refs, ref)
	}
	return refs
}

// compileHandlers counts the packages of a handler's types as modelled, but for context,
// which every framework's handlers take.
func compileHandlers(ix *Index, lib *Library) {
	for _, h := range lib.Handlers {
		ix.handlers = append(ix.handlers, h)
		for _, t := range slices.Concat(h.Params, h.Results) {
			if t.Path != "" && t.Path != "context" {
				ix.packages[Normalize(t.Path)] = true
			}
		}
	}
}

func handlerNames(lib *Library) []string {
	var names []string
	for _, h := range lib.Handlers {
		for _, t := range slices.Concat(h.Params, h.Results) {
			if t.Path != "" {
				names = append(names, t.Path+"."+t.Name)
			}
		}
	}
	return names
}

func loadRegistrations(f *File, lib *Library, c *checker) {
	for i, r := range f.Registrations {
		at := fmt.Sprintf("$.registrations[%d]", i)
		if msg := checkFuncName(r.Func); msg != "" {
			c.bad(at+".func", "%s", msg)
		}
		c.argIndex(at+".arg", "arg", r.Arg)
		if r.Methods != "" && r.Methods != "exported" {
			c.bad(at+".methods", "field methods: the only value is \"exported\", got %q", r.Methods)
		}
		topic := 0
		if r.TopicArg != nil {
			topic = *r.TopicArg + 1
			c.argIndex(at+".topic_arg", "topic_arg", *r.TopicArg)
		}
		lib.Registrations = append(lib.Registrations, Registration{Func: r.Func, Arg: r.Arg, Framework: r.Framework, Methods: r.Methods == "exported",
			Topic: topic, Library: f.Library})
	}
}

// compileRegistrations indexes a library's registrations with their default framework
// filled in, in the index's own copy: the Library is every compile's (the built-in ones are
// shared by every analyzer of the process, which may compile at once).
func compileRegistrations(ix *Index, lib *Library) {
	for _, reg := range lib.Registrations {
		r := &reg
		// A library whose registrations are modelled is described by its model: its
		// internals (Temporal's activity machinery) are not the user's effects.
		ix.packages[Normalize(PackageOf(r.Func))] = true
		if r.Framework == "" {
			// The framework its handler shapes name ("asynq"), else the library.
			r.Framework = lib.Name
			if len(lib.Handlers) > 0 {
				r.Framework = lib.Handlers[0].Framework
			}
		}
		ix.entry(r.Func).Registration = r
	}
}

func registrationNames(lib *Library) []string {
	return namesOf(lib.Registrations, func(r Registration) string { return r.Func })
}

// loadDedup names a middleware in messages by its short full name unless the entry says.
func loadDedup(f *File, lib *Library, c *checker) {
	for i, d := range f.InProcessDedup {
		if msg := checkFuncName(d.Func); msg != "" {
			c.bad(fmt.Sprintf("$.in_process_dedup[%d].func", i), "%s", msg)
		}
		what := d.What
		if what == "" {
			what = shortName(d.Func)
		}
		lib.InProcessDedup = append(lib.InProcessDedup, Dedup{Func: d.Func, What: what})
	}
}

// compileDedup also records the middleware's package: only a package importing it can
// install it (DedupPackage).
func compileDedup(ix *Index, lib *Library) {
	for _, d := range lib.InProcessDedup {
		ix.dedupPkgs[Normalize(PackageOf(d.Func))] = true
		ix.entry(d.Func).InProcessDedup = d.What
	}
}

func dedupNames(lib *Library) []string {
	return namesOf(lib.InProcessDedup, func(d Dedup) string { return d.Func })
}

func loadConditions(f *File, lib *Library, c *checker) {
	for i, cf := range f.Conditions {
		at := fmt.Sprintf("$.condition_fields[%d]", i)
		if msg := fieldProblem("condition field", cf.Field); msg != "" {
			c.bad(at+".field", "field field: %s", msg)
		}
		if len(cf.Contains) == 0 {
			c.bad(at, "condition field: field contains is required: the strings that make the condition guard the write")
		}
		for j, t := range cf.Contains {
			if strings.TrimSpace(t) == "" {
				c.bad(fmt.Sprintf("%s.contains[%d]", at, j), "field contains: an empty string would match every condition")
			}
		}
		lib.ConditionFields = append(lib.ConditionFields, ConditionField{Field: cf.Field, Contains: cf.Contains})
	}
}

// compileConditions merges the strings of a field several libraries name.
func compileConditions(ix *Index, lib *Library) {
	for _, c := range lib.ConditionFields {
		key := Normalize(c.Field)
		ix.conditions[key] = append(ix.conditions[key], c.Contains...)
	}
}

func conditionNames(lib *Library) []string {
	return namesOf(lib.ConditionFields, func(c ConditionField) string { return c.Field })
}

// loadGenerated checks generated-code entries. They name methods by name only (the types
// differ per project), so they reference no full names: the real-API check tries them on
// generated code instead.
func loadGenerated(f *File, lib *Library, c *checker) {
	for i, g := range f.Generated {
		at := fmt.Sprintf("$.generated[%d]", i)
		if g.Imports == "" || strings.ContainsAny(g.Imports, " ()*") || strings.HasSuffix(g.Imports, "/") {
			c.bad(at+".imports", "field imports: the import path of a package every generated package imports is required, got %q", g.Imports)
		}
		kind := effect.Kind(g.Kind)
		if !effect.Known(kind) {
			c.bad(at+".kind", "field kind: unknown effect kind %q (known: %s)", g.Kind, effect.KindList())
		}
		if len(g.ChainGuards) == 0 && len(g.Relative) == 0 {
			c.bad(at, "generated: field chain_guards or relative is required")
		}
		for j, n := range g.ChainGuards {
			if !gotoken.IsExported(n) {
				c.bad(fmt.Sprintf("%s.chain_guards[%d]", at, j), "a generated chain guard is an exported method name, got %q", n)
			}
		}
		for j, n := range g.Relative {
			if !gotoken.IsExported(n) {
				c.bad(fmt.Sprintf("%s.relative[%d]", at, j), "a relative setter prefix is the start of an exported method name, got %q", n)
			}
		}
		what := g.What
		if what == "" {
			what = defaultWhat(kind)
		}
		lib.Generated = append(lib.Generated, Generated{Imports: g.Imports, Kind: kind,
			ChainGuards: g.ChainGuards, Relative: g.Relative, What: what})
	}
}

func compileGenerated(ix *Index, lib *Library) {
	for i := range lib.Generated {
		ix.generated = append(ix.generated, &lib.Generated[i])
	}
}

// namesOf returns the name each entry of a structured role references.
func namesOf[T any](entries []T, name func(T) string) []string {
	var names []string
	for _, e := range entries {
		names = append(names, name(e))
	}
	return names
}

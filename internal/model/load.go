package model

import (
	"errors"
	"fmt"
	gotoken "go/token"
	"os"
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

// File is the schema of a model file (the built-in ones and users' .idemlint.yml alike).
// Every field is documented in docs/models.md.
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
	GuardTypes    []string          `yaml:"guard_types"`
	HeaderSetters []string          `yaml:"header_setters"`
	Conditions    []ConditionEntry  `yaml:"condition_fields"`
	HandlerCalls  []string          `yaml:"handler_calls"`
	TxCompletions []string          `yaml:"tx_completions"`
	TxTypes       []string          `yaml:"tx_types"`
	PoolTypes     []string          `yaml:"pool_types"`
	// InProcessDedup lists deduplicating middleware that remembers messages in memory only.
	InProcessDedup []DedupRow       `yaml:"in_process_dedup"`
	Gates          []GateEntry      `yaml:"gates"`
	Generated      []GeneratedEntry `yaml:"generated"`
	OpaqueCalls    []string         `yaml:"opaque_calls"`
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
	What    string   `yaml:"what"`
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
}

// RegistrationRow models a call that hands a handler to a framework.
type RegistrationRow struct {
	Func      string `yaml:"func"`
	Arg       int    `yaml:"arg"`
	Framework string `yaml:"framework"`
	Methods   string `yaml:"methods"` // "exported": a struct value registers its exported methods
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
		return Library{}, yamlError(name, err)
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
		if m, ok := yamlerr.TypeMessage(err); ok { // in YAML's terms, not Go's
			msg = m
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

type problem struct{ path, msg string }

// library checks the decoded file and converts it.
func (f *File) library() (Library, []problem) {
	var probs []problem
	bad := func(path, format string, args ...any) {
		probs = append(probs, problem{path, fmt.Sprintf(format, args...)})
	}
	lib := Library{Name: f.Library}
	if f.Library == "" {
		bad("$", "field library: a name for the library is required")
	}
	for i, s := range f.Sinks {
		at := fmt.Sprintf("$.sinks[%d]", i)
		names := funcNames(at, "sink", s.Func, s.Funcs, bad)
		if !effect.Known(effect.Kind(s.Kind)) {
			bad(at+".kind", "field kind: unknown effect kind %q (known: %s)", s.Kind, kindList())
		}
		shape, ok := shapeNames[s.Shape]
		if !ok {
			bad(at+".shape", "field shape: unknown shape %q (known: %s)", s.Shape, shapeList())
		}
		arg := -1
		switch {
		case s.Arg != nil:
			arg = *s.Arg
			if arg < 0 {
				bad(at+".arg", "field arg: an argument index counts from 0, got %d", arg)
			}
		case needsArg(shape):
			bad(at, "sink: field arg is required for shape %s: the index of the statement, request or params argument", s.Shape)
		}
		switch {
		case shape == UpdateExpression && s.Field == "":
			bad(at, "sink: field field is required for shape update.expression: the params field holding the expression, pkg/path.Type.Field")
		case shape == UpdateExpression && !isFieldName(s.Field):
			bad(at+".field", "field field: a field is written pkg/path.Type.Field, got %q", s.Field)
		case shape != UpdateExpression && s.Field != "":
			bad(at+".field", "field field: only shape update.expression reads a field")
		}
		what := s.What
		if what == "" {
			what = defaultWhat(effect.Kind(s.Kind))
		}
		txArg := -1
		if s.TxArg != nil {
			txArg = *s.TxArg
			if txArg < 0 {
				bad(at+".tx_arg", "field tx_arg: an argument index counts from 0, got %d", txArg)
			}
		}
		for _, n := range names {
			lib.Sinks = append(lib.Sinks, Sink{Func: n, Kind: effect.Kind(s.Kind), Shape: shape, Arg: arg, What: what, InTx: txArg >= 0, Field: s.Field})
		}
	}
	for i, g := range f.Gates {
		at := fmt.Sprintf("$.gates[%d]", i)
		names := funcNames(at, "gate", g.Func, g.Funcs, bad)
		if len(g.KeyArgs) == 0 {
			bad(at, "gate: field key_args is required: the indexes of the arguments that name the claim")
		}
		for j, k := range g.KeyArgs {
			if k < 0 {
				bad(fmt.Sprintf("%s.key_args[%d]", at, j), "field key_args: an argument index counts from 0, got %d", k)
			}
		}
		for _, n := range names {
			what := g.What
			if what == "" {
				what = n[strings.LastIndex(n, ".")+1:] // the function's own name: "SetNX"
			}
			lib.Gates = append(lib.Gates, Gate{Func: n, KeyArgs: g.KeyArgs, What: what})
		}
	}
	for i, h := range f.Handlers {
		at := fmt.Sprintf("$.handlers[%d]", i)
		if h.Framework == "" {
			bad(at, "handler: field framework is required")
		}
		hs := HandlerShape{Framework: h.Framework, Method: h.Method}
		for j, t := range h.Params {
			ref, msg := parseTypeRef(t)
			if msg != "" {
				bad(fmt.Sprintf("%s.params[%d]", at, j), "%s", msg)
			}
			hs.Params = append(hs.Params, ref)
		}
		for j, t := range h.Results {
			ref, msg := parseTypeRef(t)
			if msg != "" {
				bad(fmt.Sprintf("%s.results[%d]", at, j), "%s", msg)
			}
			hs.Results = append(hs.Results, ref)
		}
		lib.Handlers = append(lib.Handlers, hs)
	}
	for i, r := range f.Registrations {
		if msg := checkFuncName(r.Func); msg != "" {
			bad(fmt.Sprintf("$.registrations[%d].func", i), "%s", msg)
		}
		if r.Arg < 0 {
			bad(fmt.Sprintf("$.registrations[%d].arg", i), "field arg: an argument index counts from 0, got %d", r.Arg)
		}
		if r.Methods != "" && r.Methods != "exported" {
			bad(fmt.Sprintf("$.registrations[%d].methods", i), "field methods: the only value is \"exported\", got %q", r.Methods)
		}
		lib.Registrations = append(lib.Registrations, Registration{Func: r.Func, Arg: r.Arg, Framework: r.Framework, Methods: r.Methods == "exported"})
	}
	for i, d := range f.InProcessDedup {
		if msg := checkFuncName(d.Func); msg != "" {
			bad(fmt.Sprintf("$.in_process_dedup[%d].func", i), "%s", msg)
		}
		what := d.What
		if what == "" {
			what = shortName(d.Func)
		}
		lib.InProcessDedup = append(lib.InProcessDedup, Dedup{Func: d.Func, What: what})
	}
	for _, l := range []struct {
		field string
		list  []string
	}{{"unstable", f.Unstable}, {"key_setters", f.KeySetters}, {"key_options", f.KeyOptions}, {"chain_guards", f.ChainGuards}, {"header_setters", f.HeaderSetters}, {"handler_calls", f.HandlerCalls}, {"tx_completions", f.TxCompletions}, {"opaque_calls", f.OpaqueCalls}} {
		field := l.field
		for i, n := range l.list {
			if field == "unstable" && strings.HasSuffix(n, ".*") {
				continue
			}
			if msg := checkFuncName(n); msg != "" {
				bad(fmt.Sprintf("$.%s[%d]", field, i), "%s", msg)
			}
		}
	}
	for i, n := range f.KeyFields {
		if !isFieldName(n) {
			bad(fmt.Sprintf("$.key_fields[%d]", i), "a key field is written pkg/path.Type.Field, got %q", n)
		}
	}
	for i, c := range f.Conditions {
		at := fmt.Sprintf("$.condition_fields[%d]", i)
		if !isFieldName(c.Field) {
			bad(at+".field", "field field: a condition field is written pkg/path.Type.Field, got %q", c.Field)
		}
		if len(c.Contains) == 0 {
			bad(at, "condition field: field contains is required: the strings that make the condition guard the write")
		}
		for j, t := range c.Contains {
			if strings.TrimSpace(t) == "" {
				bad(fmt.Sprintf("%s.contains[%d]", at, j), "field contains: an empty string would match every condition")
			}
		}
		lib.ConditionFields = append(lib.ConditionFields, ConditionField{Field: c.Field, Contains: c.Contains})
	}
	for _, l := range []struct {
		field string
		list  []string
	}{{"guard_types", f.GuardTypes}, {"tx_types", f.TxTypes}, {"pool_types", f.PoolTypes}} {
		for i, t := range l.list {
			if ref, msg := parseTypeRef(t); msg != "" || ref.Path == "" || ref.Ptr || ref.Slice {
				bad(fmt.Sprintf("$.%s[%d]", l.field, i), "a type is written pkg/path.Type, got %q", t)
			}
		}
	}
	for i, g := range f.Generated {
		at := fmt.Sprintf("$.generated[%d]", i)
		if g.Imports == "" || strings.ContainsAny(g.Imports, " ()*") || strings.HasSuffix(g.Imports, "/") {
			bad(at+".imports", "field imports: the import path of a package every generated package imports is required, got %q", g.Imports)
		}
		if !effect.Known(effect.Kind(g.Kind)) {
			bad(at+".kind", "field kind: unknown effect kind %q (known: %s)", g.Kind, kindList())
		}
		if len(g.ChainGuards) == 0 && len(g.Relative) == 0 {
			bad(at, "generated: field chain_guards or relative is required")
		}
		for j, n := range g.ChainGuards {
			if !gotoken.IsExported(n) {
				bad(fmt.Sprintf("%s.chain_guards[%d]", at, j), "a generated chain guard is an exported method name, got %q", n)
			}
		}
		for j, n := range g.Relative {
			if !gotoken.IsExported(n) {
				bad(fmt.Sprintf("%s.relative[%d]", at, j), "a relative setter prefix is the start of an exported method name, got %q", n)
			}
		}
		what := g.What
		if what == "" {
			what = defaultWhat(effect.Kind(g.Kind))
		}
		lib.Generated = append(lib.Generated, Generated{Imports: g.Imports, Kind: effect.Kind(g.Kind),
			ChainGuards: g.ChainGuards, Relative: g.Relative, What: what})
	}
	lib.Unstable, lib.KeyFields, lib.KeySetters, lib.KeyOptions = f.Unstable, f.KeyFields, f.KeySetters, f.KeyOptions
	lib.ChainGuards, lib.GuardTypes, lib.HandlerCalls, lib.TxCompletions = f.ChainGuards, f.GuardTypes, f.HandlerCalls, f.TxCompletions
	lib.TxTypes, lib.PoolTypes = f.TxTypes, f.PoolTypes
	lib.OpaqueCalls = f.OpaqueCalls
	lib.HeaderSetters = f.HeaderSetters
	return lib, probs
}

// shortName drops the directories of a full name's package path, for messages:
// "(*a/b/middleware.Dedup).Middleware" becomes "(*middleware.Dedup).Middleware".
func shortName(full string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(full, "("), "*")
	prefix := full[:len(full)-len(rest)]
	return prefix + rest[strings.LastIndex(rest, "/")+1:]
}

// isFieldName reports whether n has the form pkg/path.Type.Field.
func isFieldName(n string) bool {
	return strings.Count(n[strings.LastIndex(n, "/")+1:], ".") == 2
}

// funcNames returns the names of an entry written with func, funcs or both (func first),
// reporting a missing or malformed name at its place under the entry at.
func funcNames(at, entry, fn string, fns []string, bad func(path, format string, args ...any)) []string {
	names := fns
	if fn != "" {
		names = append([]string{fn}, names...)
	}
	if len(names) == 0 {
		bad(at, "%s: field func (or funcs) is required: the full name of a function or method", entry)
	}
	for j, n := range names {
		if msg := checkFuncName(n); msg != "" {
			path := at + ".func"
			if fn == "" || j > 0 {
				path = fmt.Sprintf("%s.funcs[%d]", at, j-boolInt(fn != ""))
			}
			bad(path, "%s", msg)
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
	case SQLExec, SQLQuery, SQLBatch, HTTPDo, ProviderParams, KeyArg, UpdateExpression:
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

func kindList() string {
	var s []string
	for _, k := range effect.Kinds {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

func shapeList() string {
	var s []string
	for n := range shapeNames {
		s = append(s, n)
	}
	sort.Strings(s)
	return strings.Join(s, ", ")
}

package model

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"strings"
	"testing"
)

func TestBuiltinModelsLoad(t *testing.T) {
	libs := Builtin()
	if len(libs) < 8 {
		t.Fatalf("only %d built-in libraries loaded", len(libs))
	}
	ix := Compile(libs)
	for _, name := range []string{"(*database/sql.DB).ExecContext", "(github.com/jackc/pgx/v5.Tx).Exec", "github.com/stripe/stripe-go/v82/paymentintent.New"} {
		if e := ix.entries[Normalize(name)]; e == nil || e.Sink == nil {
			t.Errorf("built-in models lack %s", name)
		}
	}
}

// The built-in models are decoded once each (parseBuiltin), not as Parse reads a user's
// file: both must give the same libraries, and compiling them must leave them so (every
// analyzer of a process shares them).
func TestBuiltinDecodedAsParseReadsIt(t *testing.T) {
	entries, err := builtinFS.ReadDir("builtin")
	if err != nil {
		t.Fatal(err)
	}
	libs := Builtin()
	if len(entries) != len(libs) {
		t.Fatalf("%d files, %d libraries", len(entries), len(libs))
	}
	Compile(libs)
	for i, e := range entries {
		name := "builtin/" + e.Name()
		if got := libs[i].Source; got != name {
			t.Errorf("library %d is %s, want %s (file-name order)", i, got, name)
		}
		data, err := builtinFS.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(libs[i], want) {
			t.Errorf("%s: Builtin's library differs from Parse's", name)
		}
	}
}

func BenchmarkBuiltin(b *testing.B) {
	entries, _ := builtinFS.ReadDir("builtin")
	b.ReportAllocs()
	for b.Loop() {
		for _, e := range entries {
			parseBuiltin("builtin/" + e.Name())
		}
	}
}

func TestNormalizeMatchesLaterMajorVersions(t *testing.T) {
	for _, tc := range [][2]string{
		{"github.com/stripe/stripe-go/v82/paymentintent.New", "github.com/stripe/stripe-go/v83/paymentintent.New"},
		{"(github.com/jackc/pgx/v5.Tx).Exec", "(github.com/jackc/pgx/v6.Tx).Exec"},
		{"(*github.com/stripe/stripe-go/v82.Params).SetIdempotencyKey", "(*github.com/stripe/stripe-go/v90.Params).SetIdempotencyKey"},
	} {
		if Normalize(tc[0]) != Normalize(tc[1]) {
			t.Errorf("%s and %s should match: %s vs %s", tc[0], tc[1], Normalize(tc[0]), Normalize(tc[1]))
		}
	}
	if got := Normalize("github.com/jackc/pgx/v5"); got != "github.com/jackc/pgx" {
		t.Errorf("Normalize of a module path ending in its major version = %q", got)
	}
	if Normalize("example.com/vault/vapi.F") != "example.com/vault/vapi.F" {
		t.Errorf("a path element that merely starts with v must stay")
	}
}

func TestParseErrorsNameFileLineAndField(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"unknown key", "library: x\nsinks:\n  - func: \"a/b.F\"\n    knd: sql.write\n", `m.yml:4:5: unknown field "knd"`},
		{"bad kind", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: sql.wrte\n    shape: send\n", `m.yml:4:11: field kind: unknown effect kind "sql.wrte"`},
		{"bad shape", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: sql.write\n    shape: exec\n", `m.yml:5:12: field shape: unknown shape "exec"`},
		{"missing arg", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: sql.write\n    shape: sql.exec\n", "m.yml:3:9: sink: field arg is required for shape sql.exec"},
		{"negative arg", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: sql.write\n    shape: sql.exec\n    arg: -1\n", "m.yml:6:10: field arg: an argument index counts from 0"},
		{"wrong type", "library: x\nsinks:\n  - func: \"a/b.F\"\n    arg: one\n", `m.yml:4:10: field arg: want an integer, got a string "one"`},
		{"settings key of the wrong type", "library: x\ndisable: email.send\n", `m.yml:2:10: field disable: want a list, got a string "email.send"`},
		{"settings key misspelt", "disabel: [email.send]\n", `m.yml:1:1: unknown field "disabel": did you mean "disable"?`},
		{"model key misspelt", "library: x\nsink:\n  - func: \"a/b.F\"\n", `m.yml:2:1: unknown field "sink": did you mean "sinks"?`},
		{"key far from any", "colour: red\n", `m.yml:1:1: unknown field "colour" (settings: disable, enable, models, builtin, decisions, shared-sinks, schema; models: library, sinks, handlers,`},
		{"bad func", "library: x\nsinks:\n  - func: \"Exec\"\n    kind: sql.write\n    shape: send\n", `m.yml:3:11: a function is written pkg/path.Func, got "Exec"`},
		{"bad method", "library: x\nsinks:\n  - funcs: [\"a/b.F\", \"(*a/b.T.M\"]\n    kind: sql.write\n    shape: send\n", `a method is written (*pkg/path.Type).Method`},
		{"no library", "sinks: []\n", "m.yml:1:6: field library: a name for the library is required"},
		{"bad type", "library: x\nhandlers:\n  - framework: f\n    params: [\"*\"]\n", `m.yml:4:14: a type is written`},
		{"syntax", "library: x\nsinks:\n  - func: a\n   arg: 1\n", "m.yml:4:4:"},
		{"bad dedup func", "library: x\nin_process_dedup:\n  - func: \"(*a/b.T.M\"\n", `m.yml:3:11: a method is written (*pkg/path.Type).Method`},
		{"dedup unknown key", "library: x\nin_process_dedup:\n  - func: \"a/b.F\"\n    name: x\n", `m.yml:4:5: unknown field "name"`},
		{"bad key field", "library: x\nkey_fields: [\"a/b.Field\"]\n", `m.yml:2:14: a key field is written pkg/path.Type.Field`},
		{"gate unknown key", "library: x\ngates:\n  - func: \"(a/b.C).SetNX\"\n    key_arg: 1\n", `m.yml:4:5: unknown field "key_arg"`},
		{"gate without key_args", "library: x\ngates:\n  - func: \"(a/b.C).SetNX\"\n", "m.yml:3:9: gate: field key_args is required"},
		{"gate key_args and params_arg", "library: x\ngates:\n  - func: \"(a/b.C).PutItem\"\n    key_args: [1]\n    params_arg: 1\n", "m.yml:3:9: gate: fields key_args and params_arg exclude each other"},
		{"gate negative params arg", "library: x\ngates:\n  - func: \"(a/b.C).PutItem\"\n    params_arg: -1\n", "m.yml:4:17: field params_arg: an argument index counts from 0, got -1"},
		{"gate negative key arg", "library: x\ngates:\n  - func: \"(a/b.C).SetNX\"\n    key_args: [1, -2]\n", "m.yml:4:19: field key_args: an argument index counts from 0, got -2"},
		{"gate bad func", "library: x\ngates:\n  - funcs: [\"SetNX\"]\n    key_args: [1]\n", `m.yml:3:13: a function is written pkg/path.Func, got "SetNX"`},
		{"gate without func", "library: x\ngates:\n  - key_args: [1]\n", "m.yml:3:13: gate: field func (or funcs) is required"},
		{"generated nothing", "library: x\ngenerated:\n  - imports: a/b\n    kind: sql.write\n", "m.yml:3:12: generated: field chain_guards or relative is required"},
		{"generated no imports", "library: x\ngenerated:\n  - kind: sql.write\n    relative: [Add]\n", "m.yml:3:9: field imports: the import path"},
		{"generated bad kind", "library: x\ngenerated:\n  - imports: a/b\n    kind: sql\n    relative: [Add]\n", `m.yml:4:11: field kind: unknown effect kind "sql"`},
		{"generated guard", "library: x\ngenerated:\n  - imports: a/b\n    kind: sql.write\n    chain_guards: [onConflict]\n", `m.yml:5:20: a generated chain guard is an exported method name, got "onConflict"`},
		{"generated unknown key", "library: x\ngenerated:\n  - imports: a/b\n    guards: [A]\n", `unknown field "guards"`},
		{"opaque call", "library: x\nopaque_calls: [\"Mutate\"]\n", `m.yml:2:16: a function is written pkg/path.Func, got "Mutate"`},
		{"condition unknown key", "library: x\ncondition_fields:\n  - field: \"a/b.T.F\"\n    contain: [x]\n", `m.yml:4:5: unknown field "contain"`},
		{"condition no strings", "library: x\ncondition_fields:\n  - field: \"a/b.T.F\"\n", "m.yml:3:10: condition field: field contains is required"},
		{"condition bad field", "library: x\ncondition_fields:\n  - field: \"a/b.F\"\n    contains: [x]\n", `m.yml:3:12: field field: a condition field is written pkg/path.Type.Field`},
		{"update without field", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: store.write\n    shape: update.expression\n    arg: 1\n", "m.yml:3:9: sink: field field is required for shape update.expression"},
		{"field on other shape", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: store.write\n    shape: send\n    field: \"a/b.T.F\"\n", "m.yml:6:12: field field: only shapes update.expression (the expression) and name.arg (the object's name) read a field"},
		{"receiver on other shape", "library: x\nsinks:\n  - func: \"(a/b.T).Do\"\n    kind: store.write\n    shape: send\n    receiver: true\n", "m.yml:6:15: field receiver: only shapes provider.params (its params) and name.arg (the object it writes) read the receiver"},
		{"topic on other kind", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: store.write\n    shape: send\n    topic_arg: 0\n", "m.yml:6:16: field topic_arg: only a sink of kind publish names a topic"},
		{"topic_type without topic_arg", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: publish\n    shape: send\n    topic_type: true\n", "m.yml:6:17: field topic_type: topic_arg is required"},
		{"topic_field without topic_type", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: publish\n    shape: send\n    topic_arg: 0\n    topic_field: Args\n", "m.yml:7:18: field topic_field: only a topic_type sink"},
		{"topic_param out of range", "library: x\nhandlers:\n  - framework: f\n    params: [\"context.Context\"]\n    topic_param: 1\n", "m.yml:5:18: field topic_param: 1 is not the index of one of the 1 params"},
		{"negative topic_arg", "library: x\nregistrations:\n  - func: \"a/b.F\"\n    arg: 1\n    topic_arg: -1\n", "m.yml:5:16: field topic_arg: an argument index counts from 0, got -1"},
		{"name field malformed", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: store.write\n    shape: name.arg\n    arg: 1\n    field: \"Key\"\n", "m.yml:7:12: field field: a field is written pkg/path.Type.Field, got \"Key\""},
		{"receiver and arg", "library: x\nsinks:\n  - func: \"(a/b.T).Do\"\n    kind: store.write\n    shape: provider.params\n    arg: 0\n    receiver: true\n", "m.yml:6:10: field arg: a sink with receiver: true reads the receiver, not an argument"},
		{"bad header setter", "library: x\nheader_setters:\n  - \"SetHeader\"\n", `m.yml:3:5: a function is written pkg/path.Func, got "SetHeader"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("m.yml", []byte(tc.src))
			if err == nil {
				t.Fatalf("no error; want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error\n  %v\nwant it to contain\n  %s", err, tc.want)
			}
		})
	}
}

// The settings keys of .idemlint.yml (read by internal/config) are accepted beside the
// models, and alone.
func TestParseSettingsKeys(t *testing.T) {
	for _, src := range []string{
		"disable: [email.send]\nenable: []\nmodels: [more.yml]\nbuiltin: true\ndecisions: [key]\n",
		"library: x\ndisable: [email.send]\nsinks:\n  - func: \"a/b.F\"\n    kind: http.write\n    shape: send\n",
	} {
		if _, err := Parse("m.yml", []byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

func TestParseGoodFile(t *testing.T) {
	lib, err := Parse("m.yml", []byte(`library: acme
handlers:
  - framework: acme
    params: ["context.Context", "*acme/queue.Message"]
    results: ["error"]
sinks:
  - funcs: ["(*acme/httpc.Client).PostJSON", "acme/httpc.Post"]
    kind: http.write
    shape: key.arg
    arg: 3
in_process_dedup:
  - func: "(*acme/queue/mw.Dedup).Middleware"
  - func: "acme/queue/mw.Memo"
    what: acme's memo
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Sinks) != 2 || lib.Sinks[1].Func != "acme/httpc.Post" || lib.Sinks[0].Arg != 3 || lib.Sinks[0].Shape != KeyArg {
		t.Errorf("sinks: %+v", lib.Sinks)
	}
	h := lib.Handlers[0]
	if len(h.Params) != 2 || h.Params[1] != (TypeRef{Ptr: true, Path: "acme/queue", Name: "Message"}) || h.Results[0] != (TypeRef{Name: "error"}) {
		t.Errorf("handler: %+v", h)
	}
	if len(lib.InProcessDedup) != 2 || lib.InProcessDedup[0].What != "(*mw.Dedup).Middleware" || lib.InProcessDedup[1].What != "acme's memo" {
		t.Errorf("in_process_dedup: %+v", lib.InProcessDedup)
	}
	ix := Compile([]Library{lib})
	if got := ix.entries[Normalize("acme/queue/mw.Memo")]; got == nil || got.InProcessDedup != "acme's memo" {
		t.Errorf("compiled index: acme/queue/mw.Memo entry %+v", got)
	}
	pkg := types.NewPackage("acme/httpc", "httpc")
	fn := types.NewFunc(0, pkg, "Post", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	if ix.Lookup(fn).Sink == nil {
		t.Errorf("compiled index does not find acme/httpc.Post")
	}
}

func TestParseGates(t *testing.T) {
	lib, err := Parse("m.yml", []byte(`library: acme
gates:
  - funcs: ["(*acme/claims.Store).Claim", "acme/claims.Claim"]
    key_args: [1, 2]
    what: claims table
  - func: "(*acme/locks.Client).TryLock"
    key_args: [0]
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Gate{
		{Func: "(*acme/claims.Store).Claim", KeyArgs: []int{1, 2}, What: "claims table"},
		{Func: "acme/claims.Claim", KeyArgs: []int{1, 2}, What: "claims table"},
		{Func: "(*acme/locks.Client).TryLock", KeyArgs: []int{0}, What: "TryLock"},
	}
	if len(lib.Gates) != len(want) {
		t.Fatalf("gates: %+v", lib.Gates)
	}
	for i, g := range lib.Gates {
		if g.Func != want[i].Func || g.What != want[i].What || fmt.Sprint(g.KeyArgs) != fmt.Sprint(want[i].KeyArgs) {
			t.Errorf("gate %d = %+v, want %+v", i, g, want[i])
		}
	}
	ix := Compile([]Library{lib})
	pkg := types.NewPackage("acme/claims", "claims")
	fn := types.NewFunc(0, pkg, "Claim", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	if g := ix.Lookup(fn).Gate; g == nil || g.What != "claims table" {
		t.Errorf("compiled index: gate of acme/claims.Claim = %+v", g)
	}
	if !ix.Modelled("acme/locks") {
		t.Errorf("a gate's package is not counted as modelled")
	}
	names := NamesOf([]Library{lib})
	if len(names) != 3 || names[0] != "(*acme/claims.Store).Claim" {
		t.Errorf("NamesOf does not list the gates: %v", names)
	}
}

// FuzzParse: no input makes the loader panic, and an accepted file's sinks all have a
// known kind and a shape.
func FuzzParse(f *testing.F) {
	for _, lib := range []string{"library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: sql.write\n    shape: send\n", "library: x\nhandlers: [{framework: f, params: [\"*a.T\"]}]\n", "{", "library: [", "sinks:\n- funcs: [a]\n"} {
		f.Add([]byte(lib))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lib, err := Parse("fuzz.yml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, s := range lib.Sinks {
			if s.Shape == 0 || s.Kind == "" {
				t.Fatalf("accepted sink without shape or kind: %+v", s)
			}
		}
	})
}

func TestPackageOf(t *testing.T) {
	for name, want := range map[string]string{
		"(*database/sql.DB).Exec":                               "database/sql",
		"database/sql.Open":                                     "database/sql",
		"(*github.com/nats-io/nats.go.Conn).Publish":            "github.com/nats-io/nats.go",
		"github.com/nats-io/nats.go.Connect":                    "github.com/nats-io/nats.go",
		"github.com/stripe/stripe-go/v82.Params.IdempotencyKey": "github.com/stripe/stripe-go/v82",
		"(*github.com/riverqueue/river.Client[TTx]).Insert":     "github.com/riverqueue/river",
		"math/rand.*":           "math/rand",
		"gopkg.in/yaml.v3.Node": "gopkg.in/yaml.v3",
		"(github.com/stripe/stripe-go/v82.v1PaymentIntentService).Create": "github.com/stripe/stripe-go/v82",
	} {
		if got := PackageOf(name); got != want {
			t.Errorf("PackageOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestGeneratedLookup checks which methods of a generated package a generated model
// matches: its chain guards by name, its relative setters by name and shape, and nothing in
// a package that does not import the model's package.
func TestGeneratedLookup(t *testing.T) {
	lib, err := Parse("m.yml", []byte(`library: gen
generated:
  - imports: example.com/orm/sql
    kind: sql.write
    chain_guards: [OnConflict]
    relative: [Add]
    what: orm relative update
`))
	if err != nil {
		t.Fatal(err)
	}
	ix := Compile([]Library{lib})
	const src = `package gen
type UserCreate struct{}
func (c *UserCreate) OnConflict(opts ...string) *UserCreate { return c }
type UserUpdate struct{}
func (u *UserUpdate) AddBalance(v int) *UserUpdate          { return u }
func (u *UserUpdate) AddScore(v float64) *UserUpdate        { return u }
func (u *UserUpdate) AddFriendIDs(ids ...int) *UserUpdate   { return u }
func (u *UserUpdate) AddName(v string) *UserUpdate          { return u }
func (u *UserUpdate) Address(v int) *UserUpdate             { return u }
func (u *UserUpdate) SetBalance(v int) *UserUpdate          { return u }
type UserMutation struct{}
func (m *UserMutation) AddBalance(v int)                    {}
`
	check := func(imports bool) map[string]string {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "gen.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkg, err := new(types.Config).Check("example.com/app/gen", fset, []*ast.File{f}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if imports {
			pkg.SetImports([]*types.Package{types.NewPackage("example.com/orm/sql", "sql")})
		}
		got := map[string]string{}
		for _, tn := range []string{"UserCreate", "UserUpdate", "UserMutation"} {
			named := pkg.Scope().Lookup(tn).Type().(*types.Named)
			for m := range named.Methods() {
				switch e := ix.Lookup(m); {
				case e.GuardKind != "":
					got[tn+"."+m.Name()] = "guard " + string(e.GuardKind)
				case e.Sink != nil:
					got[tn+"."+m.Name()] = "relative " + string(e.Sink.Kind) + " " + e.Sink.What
				}
			}
		}
		return got
	}
	want := map[string]string{
		"UserCreate.OnConflict": "guard sql.write",
		"UserUpdate.AddBalance": "relative sql.write orm relative update",
		"UserUpdate.AddScore":   "relative sql.write orm relative update",
	}
	if got := check(true); !maps.Equal(got, want) {
		t.Errorf("matched %v, want %v", got, want)
	}
	if got := check(false); len(got) > 0 {
		t.Errorf("matched %v in a package that does not import the model's package", got)
	}
}

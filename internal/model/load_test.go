package model

import (
	"go/types"
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
		{"wrong type", "library: x\nsinks:\n  - func: \"a/b.F\"\n    arg: one\n", "m.yml:4:10: cannot unmarshal string"},
		{"bad func", "library: x\nsinks:\n  - func: \"Exec\"\n    kind: sql.write\n    shape: send\n", `m.yml:3:11: a function is written pkg/path.Func, got "Exec"`},
		{"bad method", "library: x\nsinks:\n  - funcs: [\"a/b.F\", \"(*a/b.T.M\"]\n    kind: sql.write\n    shape: send\n", `a method is written (*pkg/path.Type).Method`},
		{"no library", "sinks: []\n", "m.yml:1:6: field library: a name for the library is required"},
		{"bad type", "library: x\nhandlers:\n  - framework: f\n    params: [\"*\"]\n", `m.yml:4:14: a type is written`},
		{"syntax", "library: x\nsinks:\n  - func: a\n   arg: 1\n", "m.yml:4:4:"},
		{"bad key field", "library: x\nkey_fields: [\"a/b.Field\"]\n", `m.yml:2:14: a key field is written pkg/path.Type.Field`},
		{"condition unknown key", "library: x\ncondition_fields:\n  - field: \"a/b.T.F\"\n    contain: [x]\n", `m.yml:4:5: unknown field "contain"`},
		{"condition no strings", "library: x\ncondition_fields:\n  - field: \"a/b.T.F\"\n", "m.yml:3:10: condition field: field contains is required"},
		{"condition bad field", "library: x\ncondition_fields:\n  - field: \"a/b.F\"\n    contains: [x]\n", `m.yml:3:12: field field: a condition field is written pkg/path.Type.Field`},
		{"update without field", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: store.write\n    shape: update.expression\n    arg: 1\n", "m.yml:3:9: sink: field field is required for shape update.expression"},
		{"field on other shape", "library: x\nsinks:\n  - func: \"a/b.F\"\n    kind: store.write\n    shape: send\n    field: \"a/b.T.F\"\n", "m.yml:6:12: field field: only shape update.expression reads a field"},
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
	ix := Compile([]Library{lib})
	pkg := types.NewPackage("acme/httpc", "httpc")
	fn := types.NewFunc(0, pkg, "Post", types.NewSignatureType(nil, nil, nil, nil, nil, false))
	if ix.Sink(fn) == nil {
		t.Errorf("compiled index does not find acme/httpc.Post")
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

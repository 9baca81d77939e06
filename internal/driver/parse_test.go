package driver

import (
	"encoding/json"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/chokaq/idemlint/analyzer"
)

func TestCachedModule(t *testing.T) {
	for _, tc := range []struct {
		rel, module string
		ok          bool
	}{
		{"github.com/hibiken/asynq@v0.26.0/internal/base", "github.com/hibiken/asynq", true},
		{"github.com/!burnt!sushi/toml@v1.3.2", "github.com/BurntSushi/toml", true},
		{"github.com/aws/aws-sdk-go-v2/service/sqs@v1.53.0", "github.com/aws/aws-sdk-go-v2/service/sqs", true},
		{"cache/download/github.com/x/y/@v/v1.0.0.zip", "", false},
		{"no-version/here", "", false},
	} {
		got, ok := cachedModule(filepath.FromSlash(tc.rel))
		if got != tc.module || ok != tc.ok {
			t.Errorf("cachedModule(%q) = %q, %v; want %q, %v", tc.rel, got, ok, tc.module, tc.ok)
		}
	}
}

// A file parsed without bodies still type-checks to the same declarations: generic
// functions and methods of generic types keep their bodies (the checker instantiates
// them), init keeps an empty one, and the only errors are the imports only bodies used,
// which forgive drops.
func TestTrimBodies(t *testing.T) {
	const src = `package p

import (
	"fmt"
	str "strings"
	"time"
)

func init() { fmt.Println("x") }

func Plain(d time.Duration) string { return fmt.Sprint(d) }

func Generic[T any](v T) T { return v }

type Box[T any] struct{ v T }

func (b *Box[T]) Get() T { return b.v }

type S struct{}

func (S) M() int { return len(str.Fields("a b")) }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	TrimBodies(f)
	bodies := map[string]string{}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			switch {
			case fd.Body == nil:
				bodies[fd.Name.Name] = "none"
			case len(fd.Body.List) == 0:
				bodies[fd.Name.Name] = "empty"
			default:
				bodies[fd.Name.Name] = "kept"
			}
		}
	}
	want := map[string]string{"init": "empty", "Plain": "none", "Generic": "kept", "Get": "kept", "M": "none"}
	for name, w := range want {
		if bodies[name] != w {
			t.Errorf("%s: body %s, want %s", name, bodies[name], w)
		}
	}
	var errs []types.Error
	conf := types.Config{Importer: importer.Default(), Error: func(err error) { errs = append(errs, err.(types.Error)) }}
	pkg, _ := conf.Check("p", fset, []*ast.File{f}, nil)
	if len(errs) != 2 {
		t.Fatalf("type errors %v, want the two imports only bodies used (fmt, strings)", errs)
	}
	if left := dropUnusedTypeErrors(errs); len(left) != 0 {
		t.Errorf("not forgiven: %v", left)
	}
	if sig := pkg.Scope().Lookup("Plain").Type().String(); sig != "func(d time.Duration) string" {
		t.Errorf("Plain: %s", sig)
	}
}

func TestUnusedImport(t *testing.T) {
	for msg, want := range map[string]bool{
		`"fmt" imported and not used`:                        true,
		`"gopkg.in/yaml.v3" imported as yaml and not used`:   true,
		`declared and not used: x`:                           false,
		`undefined: fmt.Sprintx`:                             false,
		`"fmt" imported and not used; and something else`:    false,
		`could not import "fmt" (imported and not used too)`: false,
	} {
		if got := unusedImport(msg); got != want {
			t.Errorf("unusedImport(%q) = %v, want %v", msg, got, want)
		}
	}
}

// Parsing the packages the analysis skips (here the standard library) without bodies
// changes nothing in what a run finds, and leaves no error behind.
func TestTrimmingChangesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: two whole runs of the layered module; TestTrimBodies covers trimming itself")
	}
	chdirModule(t, "layered")
	var outs [2]string
	for i, full := range []bool{false, true} {
		cfg := Config{Analyzer: analyzer.Analyzer, Patterns: []string{"./..."}, fullSyntax: full}
		l, err := Load(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The analysis type-checks its own copy of the listing and lets go of the
		// dependencies' syntax: check a copy as it parses them.
		var trim *trimmer
		if !full {
			trim = newTrimmer(cfg.Analyzer)
		}
		_, all := copyGraph(l.pkgs)
		inOrder(all, 2, newTypeChecker(trim).check)
		if got, want := bodiless(all, "database/sql"), !full; got != want {
			t.Errorf("fullSyntax=%v: database/sql parsed without bodies: %v, want %v", full, got, want)
		}
		if bodiless(all, "layered/pg") {
			t.Errorf("fullSyntax=%v: the module's own package was trimmed", full)
		}
		out, err := Analyze(cfg, l)
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Run.Errors) > 0 {
			t.Fatalf("fullSyntax=%v: errors %+v", full, out.Run.Errors)
		}
		b, err := json.Marshal(struct{ F, H any }{out.Run.Findings, out.Run.Handlers})
		if err != nil {
			t.Fatal(err)
		}
		outs[i] = string(b)
	}
	if outs[0] != outs[1] {
		t.Errorf("trimmed and full runs differ:\n%s\n%s", outs[0], outs[1])
	}
	if !strings.Contains(outs[0], "INSERT") {
		t.Errorf("the run found nothing, so the comparison proves nothing: %s", outs[0])
	}
}

// bodiless reports whether the package with this path was loaded with no function bodies
// outside init (an empty one) and generic code.
func bodiless(pkgs []*packages.Package, path string) bool {
	found, bodies := false, 0
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.PkgPath != path {
			return
		}
		found = true
		for _, f := range p.Syntax {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && len(fd.Body.List) > 0 && !generic(fd) {
					bodies++
				}
			}
		}
	})
	return found && bodies == 0
}

// forgive drops only the unused imports of trimmed packages: any other error stays, a
// package parsed in full keeps its unused import, and ill-typedness follows what is left.
func TestForgive(t *testing.T) {
	unused := packages.Error{Msg: `"fmt" imported and not used`, Kind: packages.TypeError}
	other := packages.Error{Msg: "undefined: x", Kind: packages.TypeError}
	clean := &packages.Package{PkgPath: "clean", CompiledGoFiles: []string{"clean.go"}, Errors: []packages.Error{unused}, IllTyped: true}
	broken := &packages.Package{PkgPath: "broken", CompiledGoFiles: []string{"broken.go"}, Errors: []packages.Error{unused, other}, IllTyped: true}
	full := &packages.Package{PkgPath: "full", CompiledGoFiles: []string{"full.go"}, Errors: []packages.Error{unused}, IllTyped: true}
	user := &packages.Package{PkgPath: "user", CompiledGoFiles: []string{"user.go"}, IllTyped: true,
		Imports: map[string]*packages.Package{"clean": clean}}
	tr := &trimmer{trimmed: map[string]bool{"clean.go": true, "broken.go": true}}
	for _, p := range []*packages.Package{clean, broken, full, user} { // imports first, as the driver does
		tr.forgive(p)
	}
	for _, tc := range []struct {
		pkg  *packages.Package
		errs int
		ill  bool
	}{{clean, 0, false}, {broken, 1, true}, {full, 1, true}, {user, 0, false}} {
		if len(tc.pkg.Errors) != tc.errs || tc.pkg.IllTyped != tc.ill {
			t.Errorf("%s: errors %v, ill-typed %v; want %d errors, ill-typed %v", tc.pkg.PkgPath, tc.pkg.Errors, tc.pkg.IllTyped, tc.errs, tc.ill)
		}
	}
	if broken.Errors[0].Msg != other.Msg {
		t.Errorf("broken kept %v, want %q", broken.Errors, other.Msg)
	}
}
